# The user's commands. Each installs what is missing, configures a Release build in build/,
# builds, and does its job. `CI=true make test` turns warnings into errors.
BUILD_DIR ?= build
CMAKE_FLAGS := -G Ninja -DCMAKE_BUILD_TYPE=Release
ifeq ($(CI),true)
CMAKE_FLAGS += -DDROMEDARY_WERROR=ON
endif

.PHONY: all deps test-deps configure build run test bench package clean

all: build

deps:
	@scripts/install-deps.sh

# What the tests need beyond the build (chromium and node for the console's browser tests).
test-deps:
	@scripts/install-deps.sh --tests

configure: deps
	@cmake -S . -B $(BUILD_DIR) $(CMAKE_FLAGS) > /dev/null

build: configure
	@cmake --build $(BUILD_DIR)

# The main job: Camel YAML routes from examples/hello/ (a timer, Simple, a choice, logs),
# stopped after a few messages. `build/bin/dromedary run examples/hello/` runs until Ctrl-C.
# It builds the dromedary program and what it links, nothing else (tests and benchmarks are
# make test's and make bench's).
run: configure
	@cmake --build $(BUILD_DIR) --target dromedary
	@$(BUILD_DIR)/bin/dromedary run examples/hello/ --max-messages 8

test: test-deps build
	@ctest --test-dir $(BUILD_DIR) --output-on-failure -j 2 --timeout 300

# The Debian package (CPack): build/dromedary_VERSION_ARCH.deb. Builds the program, its
# component modules and its man pages only; docs/install.md says what the package holds.
package: configure
	@cmake --build $(BUILD_DIR) --target dromedary dromedary_modules dromedary_man
	@cd $(BUILD_DIR) && cpack -G DEB

bench: build
	@scripts/run-bench.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR)
