# Tidings — build, run and test on a Debian machine with Swift installed.
#
#   make run    install system packages if missing, build, start the REPL on a demo home
#   make test   install system packages if missing, then run every module's tests and the examples,
#               and build the package benchmarks (without running them)
#   make docs   build the DocC documentation of every library under .build/docs/
#   make bench  run the benchmarks (a separate package under Benchmarks/)
#   make install [PREFIX=/usr/local] [DESTDIR=]  the release binary, tidings(1) and shell completions
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]
#   make fuzz   run the libFuzzer targets, a few minutes each (Fuzz/README.md); not part of test

SWIFT      ?= swift
DEMO_HOME  ?= $(CURDIR)/.build/demo-home
SYSTEM_PKGS = libsqlite3-dev libedit-dev libxml2-dev
# pkg-config names of the system libraries, in the same order as SYSTEM_PKGS.
PC_NAMES    = sqlite3 libedit libxml-2.0
# The static archives the release binary links (Tools/static-ld) beyond those of SYSTEM_PKGS,
# each with its package.
STATIC_ARCHIVES = libtinfo.a:libncurses-dev libbsd.a:libbsd-dev libmd.a:libmd-dev

# Where make install puts things: DESTDIR is prepended to every path (for packaging).
PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR      = $(DESTDIR)$(PREFIX)/bin
MAN1DIR     = $(DESTDIR)$(PREFIX)/share/man/man1
BASHCOMPDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Radicale and Xandikos, the two CalDAV servers the chore-sharing tests start on 127.0.0.1;
# caldav, the Python client the tests and the sync benchmark run beside Tidings; todoman with
# vdirsyncer, a second real client the tests share chores with: pinned, in a virtual environment
# under .build, so that no system service is installed or started.
CALDAV_TOOLS     = $(CURDIR)/.build/tools/caldav
CALDAV_PACKAGES  = radicale==3.9.0 xandikos==0.4.10 caldav==3.6.0 vdirsyncer==0.21.0 todoman==4.7.0

# Coldsweat, the Fever API server the feed-account tests start on 127.0.0.1 (it fetches the
# test feeds itself, from a loopback server): pinned, in a virtual environment of its own (its
# Flask and requests need not agree with the CalDAV tools').
FEVER_TOOLS      = $(CURDIR)/.build/tools/fever
FEVER_PACKAGES   = coldsweat==0.10.2

.PHONY: deps system-deps caldav-tools fever-tools build release release-bin start-floor run test examples bench-build docs bench fuzz format lint clean install uninstall

## deps: install libsqlite3-dev, libedit-dev and libxml2-dev when pkg-config cannot find them,
## libncurses-dev, libbsd-dev and libmd-dev when their static archives are missing (the release
## binary links them; see RELEASE_FLAGS), libcurl4 (opened at run time for HTTP) when the loader does not know it, man-db and
## groff-base (the manual's tests render docs/tidings.1) when man or groff is missing, patchelf
## (the release binary opens libxml2 on first use; see release), less and w3m (the real pager
## and terminal browser the session hands its terminal to in the tests), and
## the CalDAV test tools under .build/tools/caldav and the Fever server under .build/tools/fever
## (python3-venv first when venv is missing).
deps: system-deps
	@$(MAKE) --no-print-directory caldav-tools
	@$(MAKE) --no-print-directory fever-tools

## system-deps: the Debian packages alone (what building and running need, and the pager,
## browser and manual tools the tests drive); make run and make install stop here, make test
## adds the Python test servers.
system-deps:
	@missing=""; \
	set -- $(SYSTEM_PKGS); \
	for pc in $(PC_NAMES); do \
	  pkg-config --exists $$pc 2>/dev/null || missing="$$missing $$1"; shift; \
	done; \
	if ! command -v pkg-config >/dev/null 2>&1; then missing="pkg-config $(SYSTEM_PKGS)"; fi; \
	for entry in $(STATIC_ARCHIVES); do \
	  archive=$${entry%%:*}; \
	  [ "$$(clang -print-file-name=$$archive)" != "$$archive" ] || missing="$$missing $${entry##*:}"; \
	done; \
	ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4' || missing="$$missing libcurl4"; \
	command -v man >/dev/null 2>&1 || missing="$$missing man-db"; \
	command -v groff >/dev/null 2>&1 || missing="$$missing groff-base"; \
	command -v patchelf >/dev/null 2>&1 || missing="$$missing patchelf"; \
	command -v less >/dev/null 2>&1 || missing="$$missing less"; \
	command -v w3m >/dev/null 2>&1 || missing="$$missing w3m"; \
	if [ -n "$$missing" ]; then \
	  echo "Installing system packages:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# $(call python-venv,DIR,PACKAGES,MODULES): a virtual environment in DIR holding PACKAGES, made
# (again) unless its Python imports every one of MODULES.
define python-venv
	@if [ ! -x "$(1)/bin/python3" ] || ! "$(1)/bin/python3" -c '$(foreach module,$(3),import $(module);)' 2>/dev/null; then \
	  echo "Installing $(2) into $(1)"; \
	  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then \
	    $(SUDO) apt-get update -qq && \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; \
	  fi; \
	  rm -rf "$(1)" && python3 -m venv "$(1)" && \
	  "$(1)/bin/pip" install -q --disable-pip-version-check $(2); \
	fi
endef

## caldav-tools: Radicale, Xandikos, caldav, vdirsyncer and todoman in a virtual environment
## under .build/tools/caldav.
caldav-tools:
	$(call python-venv,$(CALDAV_TOOLS),$(CALDAV_PACKAGES),radicale xandikos caldav vdirsyncer todoman)

## fever-tools: Coldsweat (a Fever API server) in a virtual environment under .build/tools/fever.
fever-tools:
	$(call python-venv,$(FEVER_TOOLS),$(FEVER_PACKAGES),coldsweat)

build: system-deps
	$(SWIFT) build

# The Swift runtime and Foundation are linked statically, and lld packs the relative
# relocations (RELR): the binary then starts without loading the runtime and with a fraction of
# the relocation work (see the README's start-up figures). Tools/static-ld links libstdc++,
# SQLite and libedit from the system's static archives, so that a start loads no library but
# the C library's (STATIC_ARCHIVES: their packages). The binary stays position-independent.
RELEASE_FLAGS = -c release --static-swift-stdlib -Xswiftc -use-ld=lld \
	-Xswiftc -Xclang-linker -Xswiftc --ld-path=$(CURDIR)/Tools/static-ld \
	-Xlinker -z -Xlinker pack-relative-relocs

# libxml2 is opened on first use (Sources/CLibXML2Loader), yet its pkg-config flags link it,
# and SwiftPM puts them before any --as-needed: the release binary's dependency on it is
# removed after the link, so that a command that parses nothing starts without libxml2, ICU,
# liblzma and zlib (0.5-0.7 ms of `tidings --version`). The binary must still run. The patched
# binary is a copy, $(RELEASE_BIN), made again only when SwiftPM's changed: patching SwiftPM's
# own output made every later build link it again (minutes, with nothing changed).
RELEASE_BIN = $(CURDIR)/.build/tidings-release/tidings

release: system-deps
	$(SWIFT) build $(RELEASE_FLAGS) --product tidings
	@built="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/tidings"; \
	if [ ! -x "$(RELEASE_BIN)" ] || [ "$$built" -nt "$(RELEASE_BIN)" ]; then \
	  mkdir -p "$$(dirname "$(RELEASE_BIN)")" && cp "$$built" "$(RELEASE_BIN).tmp" && \
	  if patchelf --print-needed "$(RELEASE_BIN).tmp" | grep -q '^libxml2'; then \
	    patchelf --remove-needed libxml2.so.2 "$(RELEASE_BIN).tmp"; \
	  fi && mv "$(RELEASE_BIN).tmp" "$(RELEASE_BIN)"; \
	fi; \
	"$(RELEASE_BIN)" --version >/dev/null

## release-bin: the path of the release binary (for scripts).
release-bin:
	@echo "$(RELEASE_BIN)"

## start-floor: builds Tools/StartFloor (GRDB opens the database and inserts one task, nothing
## else) with the release binary's flags, and prints its path: the floor of `task add` on this
## stack, which Benchmarks/process-bench.sh times beside it.
start-floor: system-deps
	@$(SWIFT) build $(RELEASE_FLAGS) --product StartFloor >/dev/null
	@echo "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/StartFloor"

## run: the REPL on a demo home that already holds the bundled sample feeds and two chores
## (Demo/setup.tidings, loaded once into a fresh demo home; delete the home to start over).
run: release
	@bin="$(RELEASE_BIN)"; \
	if [ ! -f "$(DEMO_HOME)/tidings.sqlite" ]; then \
	  "$$bin" --home "$(DEMO_HOME)" Demo/setup.tidings >/dev/null || { rm -rf "$(DEMO_HOME)"; exit 1; }; \
	fi; \
	"$$bin" --home "$(DEMO_HOME)"

test: deps
	$(SWIFT) test
	$(MAKE) --no-print-directory examples
	$(MAKE) --no-print-directory bench-build
	$(MAKE) --no-print-directory docs

## bench-build: build the package benchmarks (debug, about a minute), so that a change to the
## libraries' API cannot break `make bench` unseen; `make bench` builds them for release.
bench-build: deps
	cd Benchmarks && $(SWIFT) build

## examples: build each package under Examples/ (an app that depends on one library by path, as
## an outside package would) and check that its run prints its expected-output.txt.
EXAMPLES = FeedParserExample FeedExample ChoresExample StorageExample

examples: deps
	@for example in $(EXAMPLES); do \
	  echo "Examples/$$example: building and running"; \
	  ( cd Examples/$$example && $(SWIFT) build && \
	    "$$($(SWIFT) build --show-bin-path)/$$example" > .build/output.txt && \
	    diff -u expected-output.txt .build/output.txt ) || exit 1; \
	  echo "Examples/$$example: printed its expected output"; \
	done; \
	cd Examples/FeedParserExample && \
	if find .build -path '*/GRDB.build/*.o' -o -path '*/CCurl.build/*.o' -o -path '*/Storage.build/*.o' | grep -q . || \
	  ldd "$$($(SWIFT) build --show-bin-path)/FeedParserExample" | grep -q -E 'libcurl|libsqlite3'; then \
	  echo "Examples/FeedParserExample: the parser alone built or linked GRDB, SQLite or libcurl"; exit 1; \
	fi; \
	echo "Examples/FeedParserExample: built without GRDB, SQLite or libcurl"

## docs: a DocC archive per library, .build/docs/<Module>.doccarchive, from the catalogs in
## Sources/<Module>/<Module>.docc and the doc comments (swift-docc-plugin: a command plugin, so
## swift build and make test never build it). Any DocC warning fails it (a broken symbol link
## included). DocC's check that every parameter is documented is off: the house documents the
## parameters that need a word, not every one.
DOC_TARGETS = Models Networking URLSessionNetworking DefaultTransport Storage Store Config FeedParser Feed Chores Accounts
DOCS_DIR    = .build/docs

docs: deps
	rm -rf $(DOCS_DIR) && mkdir -p $(DOCS_DIR)
	$(SWIFT) package --allow-writing-to-directory $(DOCS_DIR) generate-documentation \
	  $(foreach target,$(DOC_TARGETS),--target $(target)) --output-path $(DOCS_DIR) --disable-indexing \
	  --warnings-as-errors

## install: the release binary, the manual and the completion scripts for bash, zsh and fish
## (which the binary itself generates, from swift-argument-parser).
install: release
	@bin="$(RELEASE_BIN)"; \
	set -e; \
	install -d "$(BINDIR)" "$(MAN1DIR)" "$(BASHCOMPDIR)" "$(ZSHCOMPDIR)" "$(FISHCOMPDIR)"; \
	install -m 755 "$$bin" "$(BINDIR)/tidings"; \
	install -m 644 docs/tidings.1 "$(MAN1DIR)/tidings.1"; \
	"$$bin" --generate-completion-script bash > "$(BASHCOMPDIR)/tidings"; \
	"$$bin" --generate-completion-script zsh > "$(ZSHCOMPDIR)/_tidings"; \
	"$$bin" --generate-completion-script fish > "$(FISHCOMPDIR)/tidings.fish"; \
	chmod 644 "$(BASHCOMPDIR)/tidings" "$(ZSHCOMPDIR)/_tidings" "$(FISHCOMPDIR)/tidings.fish"; \
	echo "installed $(BINDIR)/tidings, $(MAN1DIR)/tidings.1 and the bash, zsh and fish completions"

uninstall:
	rm -f "$(BINDIR)/tidings" "$(MAN1DIR)/tidings.1" "$(BASHCOMPDIR)/tidings" "$(ZSHCOMPDIR)/_tidings" \
	  "$(FISHCOMPDIR)/tidings.fish"

# The networking benchmarks fetch from the shared corpus server (nginx on 127.0.0.1:18080).
PEER_BENCH ?= $(CURDIR)/../shared/bench

bench: deps
	@if [ -d "$(PEER_BENCH)" ]; then bash "$(PEER_BENCH)/make-corpus.sh" >/dev/null && bash "$(PEER_BENCH)/serve.sh" start; \
	else echo "no $(PEER_BENCH): the networking benchmarks need a server at TIDINGS_BENCH_URL"; fi
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark
	bash Benchmarks/process-bench.sh

## fuzz: build the parsers' libFuzzer targets with AddressSanitizer and run each for FUZZ_SECONDS
## (default 180), one after another; TARGET=xml|json|html|opml|dates|tokenizer runs one. Findings
## land in Fuzz/work/findings/ (see Fuzz/README.md).
FUZZ_SECONDS ?= 180
TARGET       ?= all

fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) bash Fuzz/fuzz.sh $(TARGET)

format:
	$(SWIFT) format -i -r Sources Tests Package.swift

lint:
	$(SWIFT) format lint -r Sources Tests Package.swift

clean:
	rm -rf .build .build-fuzz Benchmarks/.build $(foreach example,$(EXAMPLES),Examples/$(example)/.build)
