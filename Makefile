# SPDX-License-Identifier: Apache-2.0
#
# The two commands of the README, and the long flows:
#   make run      set up, build, and run the htmsim suite: every workload under the papers' TM
#                 configurations on the GPU-TM system model, and the GPU-LocalTM workloads on
#                 the compute-unit model, each run checked, and the report
#                 ($(RUN_BUILD)/report/report.md) beside the papers' figures; ARGS adds options.
#                 Only what the suite needs: the Debian packages of the golden build
#                 (tools/setup.sh --golden) and htmsim in a tree of its own, $(RUN_BUILD),
#                 configured with -DHTM_RTL=OFF (no Verilator, no Yosys); the setup, configure
#                 and build logs go to files in it, the terminal gets one line per step
#   make lockstep the block lockstep regression (RTL against the golden models), with a summary
#   make test     set up, build, and run the test suite (ctest, everything except long flows)
#   make regress  long lockstep runs (40 times the make-test length, the lockstep and netlist
#                 tests with HTM_SEED=1..8, then 8 seeds x 1M cycles of every RTL model), the netlists of the LONG_NETLIST configurations and the
#                 commit-unit correctness harness (8 seeds x 2.3M transactions), every
#                 workload on the small machine with every netlist in the loop, and the
#                 default suite with every block's RTL in the loop, compared with the golden
#                 suite (statistics and commit logs), and a fixed-seed mutation sample (20
#                 mutants per block), in a build tree of its own ($(BUILD)-long)
#   make formal   every proof, the long ones too
#   make area     the area and power flow of every block and configuration (CACTI 7 for the RAM
#                 macros, Yosys onto the OSU 0.18 um and sky130_fd_sc_hd cells for the logic,
#                 OpenSTA for its power), then the report $(BUILD)/report/area.md beside the
#                 papers' figures (docs/area_power.md)
#   make mutate   mutation testing (docs/verification.md): the mutants of every block (BLOCK=
#                 one or more blocks) run against the block's make-test scope (random lockstep,
#                 netlist lockstep, directed tests, make-test proofs: MUTATE_CATS; the netlist
#                 category needs a Yosys netlist of every mutant per configuration, which the
#                 build tree then keeps, HTM_MUTATE_NETLIST), MUTANTS per block (a fixed-seed sample;
#                 MUTANTS=all for every mutant, hours; the proofs on MUTATE_FORMAL of them and
#                 on every survivor), then $(BUILD)/report/mutation.md
#   make mutate-equiv  the SAT miter of every mutant triaged equivalent (BLOCK= one or more)
#                 against the original at the block's short configuration (docs/verification.md)
#   make coverage Verilator line, toggle and functional coverage of every block under the
#                 make-test lockstep and directed tests (seed 1), in a tree of its own
#                 ($(COV_BUILD), no netlists), then $(COV_BUILD)/report/coverage.md
#   make fpga     ECP5 synthesis and place and route of every block and configuration, then
#                 the figures table
#   make proto    the FPGA prototype's bitstream for the ULX3S 85F (fpga/proto_flow.py):
#                 htm_proto_ulx3s with htm_sys in PROTO_CONFIG at the first clock of PROTO_MHZ
#                 that place and route meets, $(BUILD)/proto/htm_proto_ulx3s_<config>.bit and its
#                 report (.json, .md) beside it (docs/proto.md, "Building and loading the
#                 bitstream"); PROTO_ARGS adds options of the flow (--router router2, --try-all)
#   make clean
BUILD ?= build
COV_BUILD ?= $(BUILD)-cov
BLOCK ?=
MUTANTS ?= 40
MUTATE_SEED ?= 1
MUTATE_CATS ?= lockstep,netlist,directed,formal
MUTATE_FORMAL ?= 10
RUN_BUILD ?= $(BUILD)-run
JOBS ?= $(shell nproc)
LONG ?= OFF
CTEST = ctest --test-dir $(BUILD) --output-on-failure --no-tests=error -j$(JOBS)
STEP = tools/quiet_step.py
PYTHON ?= python3
PROTO_CONFIG ?= default
PROTO_MHZ ?= 100 75 62.5 50 40 30 25
PROTO_SEED ?= 1
PROTO_ARGS ?=

.PHONY: run lockstep test regress formal fpga proto area mutate mutate-equiv coverage setup setup-golden configure build clean

setup:
	@tools/setup.sh

setup-golden:
	@HTM_SETUP_LOG=$(RUN_BUILD)/setup.log tools/setup.sh --golden

configure: setup
	@bin=$$(HTM_SETUP_QUIET=1 tools/setup.sh --print-bin) && \
	  area=$$(HTM_SETUP_QUIET=1 tools/setup.sh --print-area) && \
	  cmake -S . -B $(BUILD) -G Ninja -DHTM_TOOLS_BIN=$$bin -DHTM_AREA_DIR=$$area \
	    -DHTM_LONG=$(LONG) >/dev/null

build: configure
	@cmake --build $(BUILD) -j$(JOBS)

run: setup-golden
	@$(STEP) --log $(RUN_BUILD)/configure.log --label "configure $(RUN_BUILD) (golden models)" \
	  -- cmake -S . -B $(RUN_BUILD) -G Ninja -DHTM_RTL=OFF
	@$(STEP) --log $(RUN_BUILD)/build.log --label "build $(RUN_BUILD)/sim/htmsim" \
	  -- cmake --build $(RUN_BUILD) --target htmsim -j$(JOBS)
	@echo "$(RUN_BUILD)/sim/htmsim suite --quiet --jobs $(JOBS) --out $(RUN_BUILD)/report $(ARGS)"
	@$(RUN_BUILD)/sim/htmsim suite --quiet --jobs $(JOBS) --out $(RUN_BUILD)/report $(ARGS)

lockstep: build
	$(BUILD)/sim/htmsim-rtl lockstep $(ARGS)

test: build
	$(CTEST) -LE '_long$$'

regress:
	$(MAKE) build BUILD=$(BUILD)-long LONG=ON
	HTM_CYCLES_SCALE=40 ctest --test-dir $(BUILD)-long --output-on-failure --no-tests=error \
	  -j$(JOBS) -L '^(lockstep|netlist)$$'
	for seed in 1 2 3 4 5 6 7 8; do \
	  HTM_SEED=$$seed ctest --test-dir $(BUILD)-long --output-on-failure --no-tests=error \
	    -j$(JOBS) -L '^(lockstep|netlist)$$' || exit 1; done
	for seed in 1 2 3 4 5 6 7 8; do \
	  $(BUILD)-long/sim/htmsim-rtl lockstep --cycles 1000000 --seed $$seed || exit 1; done
	for seed in 1 2 3 4; do \
	  for cfg in default small; do \
	    $(BUILD)-long/sim/htmsim si oracle --config $$cfg --histories 1000000 --seed $$seed \
	      || exit 1; done; \
	  $(BUILD)-long/sim/htmsim si oracle --config one --slots 2 --histories 1000000 \
	    --seed $$seed || exit 1; \
	  $(BUILD)-long/sim/htmsim si oracle --slots 8 --instances 24 --addresses 8 \
	    --write-percent 25 --histories 1000000 --seed $$seed || exit 1; done
	for seed in 1 2 3 4 5 6 7 8; do \
	  $(BUILD)-long/sim/htmsim cu-system --config small --units 2 --cores 4 \
	    --transactions 1000000 --seed $$seed || exit 1; \
	  $(BUILD)-long/sim/htmsim cu-system --config small --units 3 --cores 4 --max-reads 12 \
	    --max-writes 8 --pool 40 --transactions 300000 --seed $$seed || exit 1; \
	  $(BUILD)-long/sim/htmsim cu-system --config one --units 2 --cores 2 --max-reads 2 \
	    --max-writes 2 --pool 4 --transactions 500000 --seed $$seed || exit 1; \
	  $(BUILD)-long/sim/htmsim cu-system --config default --units 4 --cores 32 --pool 64 \
	    --transactions 500000 --seed $$seed || exit 1; done
	ctest --test-dir $(BUILD)-long --output-on-failure --no-tests=error -j$(JOBS) \
	  -L '^cosim_long$$'
	$(BUILD)-long/sim/htmsim suite --jobs $(JOBS) --no-lds --keep-logs \
	  --out $(BUILD)-long/cosim/golden
	$(BUILD)-long/sim/htmsim-rtl suite --jobs $(JOBS) --no-lds --keep-logs --rtl all \
	  --out $(BUILD)-long/cosim/rtl
	python3 tools/compare_runs.py $(BUILD)-long/cosim/golden $(BUILD)-long/cosim/rtl
	$(MAKE) mutate BUILD=$(BUILD)-long LONG=ON MUTANTS=20 MUTATE_SEED=1

formal: build
	$(CTEST) -L '^formal'

fpga: build
	$(CTEST) -L '^(synth|fpga)'
	@tools/fpga_table.py $(BUILD)

proto: setup
	@bin=$$(HTM_SETUP_QUIET=1 tools/setup.sh --print-bin) && \
	  $(PYTHON) fpga/proto_flow.py --config $(PROTO_CONFIG) --mhz $(PROTO_MHZ) \
	    --seed $(PROTO_SEED) --out $(BUILD)/proto --tools-bin $$bin $(PROTO_ARGS)

area: build
	$(CTEST) -L '^area'
	$(PYTHON) area/report.py --build $(BUILD) --out $(BUILD)/report \
	  --cacti-dir $$(HTM_SETUP_QUIET=1 tools/setup.sh --print-area)/cacti

coverage: setup
	@bin=$$(HTM_SETUP_QUIET=1 tools/setup.sh --print-bin) && \
	  cmake -S . -B $(COV_BUILD) -G Ninja -DHTM_TOOLS_BIN=$$bin -DHTM_COVERAGE=ON >/dev/null
	@cmake --build $(COV_BUILD) --target htm_tests -j$(JOBS)
	@rm -rf $(COV_BUILD)/coverage
	@rc=0; HTM_SEED=1 HTM_COVERAGE_DIR=$(abspath $(COV_BUILD))/coverage \
	  ctest --test-dir $(COV_BUILD) --output-on-failure --no-tests=error -j$(JOBS) \
	    -L '^(lockstep|directed)$$' || rc=$$?; \
	  $(PYTHON) tools/coverage_report.py --coverage $(COV_BUILD)/coverage \
	    --out $(COV_BUILD)/report && exit $$rc

mutate: build
	@case ",$(MUTATE_CATS)," in *,netlist,*) net=ON;; *) net=OFF;; esac; \
	  if [ $$net = ON ] && ! grep -q '^HTM_MUTATE_NETLIST:BOOL=ON' $(BUILD)/CMakeCache.txt; then \
	    cmake -DHTM_MUTATE_NETLIST=ON $(BUILD) >/dev/null; fi
	cmake --build $(BUILD) --target htm_mutants -j$(JOBS)
	@blocks="$(BLOCK)"; \
	if [ -z "$$blocks" ]; then \
	  blocks=$$(ls $(BUILD)/gen/mutate/*.json | xargs -n1 basename | sed 's/\.json$$//'); fi; \
	for b in $$blocks; do \
	  $(PYTHON) mutate/run_mutants.py --build $(BUILD) --binary $(BUILD)/mutate/htm_mutants \
	    --block $$b --sample $(MUTANTS) --seed $(MUTATE_SEED) --categories $(MUTATE_CATS) \
	    --formal-sample $(MUTATE_FORMAL) \
	    --jobs $(JOBS) --out $(BUILD)/mutate/full || exit 1; done
	$(PYTHON) mutate/report.py --results $(BUILD)/mutate/full --out $(BUILD)/report

# The SAT check behind every "equivalent" triage line (mutate/equiv_check.py), per block at its
# short configuration; results in $(BUILD)/mutate/equiv/<block>.json.
mutate-equiv: build
	@blocks="$(BLOCK)"; \
	if [ -z "$$blocks" ]; then \
	  blocks=$$(ls mutate/triage/*.txt | xargs -n1 basename | sed 's/\.txt$$//'); fi; \
	rc=0; for b in $$blocks; do \
	  $(PYTHON) mutate/equiv_check.py --build $(BUILD) --block $$b --triaged --steps 12 \
	    --jobs $(JOBS) --out $(BUILD)/mutate/equiv/$$b.json || rc=1; done; exit $$rc

clean:
	rm -rf $(BUILD) $(BUILD)-long $(RUN_BUILD) $(COV_BUILD)
