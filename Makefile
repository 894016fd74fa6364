# SPDX-License-Identifier: Apache-2.0
#
# The two commands of the README, and the long flows:
#   make run      set up, build, and run htmsim (the lockstep regression of every block)
#   make test     set up, build, and run the test suite (ctest, everything except long flows)
#   make regress  long lockstep runs (many seeds, millions of cycles), LONG configurations too
#   make formal   deep formal proofs
#   make fpga     ECP5 place and route (Fmax) of every block and configuration
#   make clean
BUILD ?= build
JOBS ?= $(shell nproc)
CTEST = ctest --test-dir $(BUILD) --output-on-failure --no-tests=error -j$(JOBS)

.PHONY: run test regress formal fpga setup configure build clean

setup:
	@tools/setup.sh

configure: setup
	@bin=$$(HTM_SETUP_QUIET=1 tools/setup.sh --print-bin) && \
	  cmake -S . -B $(BUILD) -G Ninja -DHTM_TOOLS_BIN=$$bin $(CMAKE_ARGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j$(JOBS)

run: build
	$(BUILD)/sim/htmsim $(ARGS)

test: build
	$(CTEST) -LE '_long$$'

regress:
	$(MAKE) build CMAKE_ARGS=-DHTM_LONG=ON
	HTM_CYCLES=2000000 $(CTEST) -L '^(lockstep|netlist)$$'
	for seed in 1 2 3 4 5 6 7 8; do \
	  $(BUILD)/sim/htmsim --netlist --cycles 1000000 --seed $$seed || exit 1; done

formal: build
	$(CTEST) -L '^formal'

fpga:
	$(MAKE) build CMAKE_ARGS=-DHTM_LONG=ON
	$(CTEST) -L '^(synth|fpga)'
	@tools/fpga_table.py $(BUILD)

clean:
	rm -rf $(BUILD)
