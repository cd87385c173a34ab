# DBMultiverse Desktop. `make run` builds and runs the service; `make test` runs the tests.
PREFIX ?= $(HOME)/.local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
RELEASE_FLAGS = -c release --static-swift-stdlib
RELEASE_BIN = $(shell swift build $(RELEASE_FLAGS) --show-bin-path 2>/dev/null)/dbmultiverse

.PHONY: all deps build run test clean install uninstall install-binary

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	swift build $(RELEASE_FLAGS) --product dbmultiverse

run: build
	./scripts/run-service.sh "$(RELEASE_BIN)"

# The whole suite, as CI runs it: installs what the tests need, builds, runs, summarises
# (scripts/run-tests.sh; TEST_ARGS passes e.g. --filter NAME to swift test).
test: deps
	@./scripts/run-tests.sh $(TEST_ARGS)

clean:
	swift package clean

# ---- install / uninstall (DESIGN §9; docs/deep-links.md) -------------------------------------
# `make install` builds the release binary; `make install BINARY=path` installs a prebuilt one.
# DESTDIR is a staging root: the files go under $(DESTDIR)$(PREFIX), the paths written into
# them name $(PREFIX), and the desktop database / scheme registration are left to the package.
BINARY ?=
APP_ID = com.nobadi.DBMultiverse
INSTALLED_BIN = $(BINDIR)/dbmultiverse
APPLICATIONS_DIR = $(DATADIR)/applications
# The tray item's IconThemePath: a theme folder of its own, found by hosts when $(DATADIR) is not
# one of the desktop's data directories (desktop/icons/index.theme says why it has an index).
TRAY_ICONS = $(DATADIR)/dbmultiverse/icons
# The systemd user units' folder: $(DATADIR)/systemd/user by default (systemd reads it under
# ~/.local/share and /usr/share); a package uses /usr/lib/systemd/user (debian/rules).
SYSTEMD_USER_DIR ?= $(DATADIR)/systemd/user
# Where the browser extension's host manifests go: `user` (the browsers' folders in $HOME) or
# `system` (their system-wide folders; scripts/browser-hosts.sh lists them).
BROWSER_HOSTS ?= user
# The Plasma widget (DESIGN §15; docs/plasma.md): the package for the Plasma this machine has
# (scripts/plasmoid.sh version: 6 when Plasma 6 is installed, else 5, as on Debian 12), with the
# installed binary's path written in. PLASMA_VERSION=5 or 6 chooses.
PLASMOID_DIR = $(DATADIR)/plasma/plasmoids/com.nobadi.dbmultiverse
PLASMA_VERSION ?= $(shell ./scripts/plasmoid.sh version)
INSTALL_FILES = \
	$(BINDIR)/dbmultiverse \
	$(DATADIR)/dbus-1/services/$(APP_ID).service \
	$(APPLICATIONS_DIR)/$(APP_ID).desktop \
	$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg \
	$(TRAY_ICONS)/hicolor/index.theme \
	$(TRAY_ICONS)/hicolor/scalable/apps/$(APP_ID).svg \
	$(SYSTEMD_USER_DIR)/dbmultiverse.service \
	$(SYSTEMD_USER_DIR)/dbmultiverse-notifier.service \
	$(SYSTEMD_USER_DIR)/dbmultiverse-sync.service \
	$(SYSTEMD_USER_DIR)/dbmultiverse-sync.timer \
	$(METAINFO) \
	$(foreach completion,$(COMPLETIONS),$(lastword $(subst :, ,$(completion))))
# The GNOME Shell extension (DESIGN §15; docs/gnome-shell.md): the build for the gnome-shell installed
# here (43 for GNOME 43–44, 45 for later ones or none); GNOME_SHELL_BUILD=43|45 chooses it (a package
# built for another release than the build machine's). Installed as a folder of its own, removed whole.
GNOME_EXTENSION_UUID = dbmultiverse@nobadi.com
GNOME_EXTENSION_DIR = $(DATADIR)/gnome-shell/extensions/$(GNOME_EXTENSION_UUID)
GNOME_SHELL_BUILD ?= $(shell desktop/gnome-shell/build.sh style)
# The AppStream metadata (software centres), and the shells' completions, which swift-argument-parser
# writes (`dbmultiverse --generate-completion-script SHELL`), as shell:file pairs. The folders are
# those the shells read from packages (Debian's: zsh's vendor-completions, fish's vendor_completions.d).
METAINFO = $(DATADIR)/metainfo/$(APP_ID).metainfo.xml
COMPLETIONS = \
	bash:$(DATADIR)/bash-completion/completions/dbmultiverse \
	zsh:$(DATADIR)/zsh/vendor-completions/_dbmultiverse \
	fish:$(DATADIR)/fish/vendor_completions.d/dbmultiverse.fish
# install_completion(shell:destination): the installed binary's completion script for the shell,
# without the #! line it starts bash's with (the shell sources it; lintian: bash-completion-with-hashbang).
define install_completion
	install -d "$(DESTDIR)$(dir $(lastword $(subst :, ,$(1))))"
	"$(DESTDIR)$(INSTALLED_BIN)" --generate-completion-script $(firstword $(subst :, ,$(1))) > "$(DESTDIR)$(lastword $(subst :, ,$(1))).tmp"
	sed '1{/^#!/d}' "$(DESTDIR)$(lastword $(subst :, ,$(1))).tmp" > "$(DESTDIR)$(lastword $(subst :, ,$(1)))"
	rm "$(DESTDIR)$(lastword $(subst :, ,$(1))).tmp"
	chmod 644 "$(DESTDIR)$(lastword $(subst :, ,$(1)))"

endef
# install_rewritten(source, destination): copies a text file with mode 644, writing the installed
# binary's absolute path as the command of every Exec=/ExecStart= line.
define install_rewritten
	sed -e 's!^Exec=[^ ]*!Exec=$(INSTALLED_BIN)!' -e 's!^ExecStart=[^ ]*!ExecStart=$(INSTALLED_BIN)!' "$(1)" > "$(DESTDIR)$(2)"
	chmod 644 "$(DESTDIR)$(2)"
endef

install-binary:
ifeq ($(BINARY),)
	swift build $(RELEASE_FLAGS) --product dbmultiverse
	install -D -m 755 "$(RELEASE_BIN)" "$(DESTDIR)$(BINDIR)/dbmultiverse"
else
	install -D -m 755 "$(BINARY)" "$(DESTDIR)$(BINDIR)/dbmultiverse"
endif

install:
	@case "$(PREFIX)" in /*) ;; *) echo "make install: PREFIX must be an absolute path (got '$(PREFIX)')" >&2; exit 2;; esac
	@case "$(PREFIX)" in *[!A-Za-z0-9/._+@,=:~-]*) echo "make install: PREFIX goes into Exec= lines; use letters, digits and / . _ + @ , = : ~ - only (got '$(PREFIX)')" >&2; exit 2;; esac
	$(MAKE) --no-print-directory install-binary
	install -d "$(DESTDIR)$(DATADIR)/dbus-1/services" "$(DESTDIR)$(APPLICATIONS_DIR)" \
		"$(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps" "$(DESTDIR)$(SYSTEMD_USER_DIR)"
	$(call install_rewritten,dbus/$(APP_ID).service,$(DATADIR)/dbus-1/services/$(APP_ID).service)
	$(call install_rewritten,desktop/$(APP_ID).desktop,$(APPLICATIONS_DIR)/$(APP_ID).desktop)
	install -m 644 desktop/icons/$(APP_ID).svg "$(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg"
	install -d "$(DESTDIR)$(TRAY_ICONS)/hicolor/scalable/apps"
	install -m 644 desktop/icons/index.theme "$(DESTDIR)$(TRAY_ICONS)/hicolor/index.theme"
	install -m 644 desktop/icons/$(APP_ID).svg "$(DESTDIR)$(TRAY_ICONS)/hicolor/scalable/apps/$(APP_ID).svg"
	$(call install_rewritten,desktop/dbmultiverse.service,$(SYSTEMD_USER_DIR)/dbmultiverse.service)
ifneq ($(wildcard desktop/dbmultiverse-notifier.service),)
	$(call install_rewritten,desktop/dbmultiverse-notifier.service,$(SYSTEMD_USER_DIR)/dbmultiverse-notifier.service)
endif
	$(call install_rewritten,desktop/dbmultiverse-sync.service,$(SYSTEMD_USER_DIR)/dbmultiverse-sync.service)
	install -m 644 desktop/dbmultiverse-sync.timer "$(DESTDIR)$(SYSTEMD_USER_DIR)/dbmultiverse-sync.timer"
	rm -rf "$(DESTDIR)$(PLASMOID_DIR)"
	./scripts/plasmoid.sh build "$(PLASMA_VERSION)" "$(INSTALLED_BIN)" "$(DESTDIR)$(PLASMOID_DIR)"
	desktop/gnome-shell/build.sh $(GNOME_SHELL_BUILD) "$(DESTDIR)$(GNOME_EXTENSION_DIR)"
	install -D -m 644 desktop/$(APP_ID).metainfo.xml "$(DESTDIR)$(METAINFO)"
	$(foreach completion,$(COMPLETIONS),$(call install_completion,$(completion)))
ifeq ($(BROWSER_HOSTS),system)
	DESTDIR="$(DESTDIR)" ./scripts/browser-hosts.sh install-system "$(INSTALLED_BIN)" "$(DATADIR)"
else
	DESTDIR="$(DESTDIR)" ./scripts/browser-hosts.sh install "$(INSTALLED_BIN)"
endif
ifeq ($(DESTDIR),)
	-if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database "$(APPLICATIONS_DIR)"; fi
	-if command -v xdg-mime >/dev/null 2>&1; then xdg-mime default $(APP_ID).desktop x-scheme-handler/dbmultiverse; fi
endif

uninstall:
	rm -f $(foreach file,$(INSTALL_FILES),"$(DESTDIR)$(file)")
	rm -rf "$(DESTDIR)$(PLASMOID_DIR)"
	rm -rf "$(DESTDIR)$(GNOME_EXTENSION_DIR)"
ifeq ($(BROWSER_HOSTS),system)
	DESTDIR="$(DESTDIR)" ./scripts/browser-hosts.sh uninstall-system "$(DATADIR)"
else
	DESTDIR="$(DESTDIR)" ./scripts/browser-hosts.sh uninstall
endif
ifeq ($(DESTDIR),)
	-if command -v update-desktop-database >/dev/null 2>&1 && [ -d "$(APPLICATIONS_DIR)" ]; then update-desktop-database "$(APPLICATIONS_DIR)"; fi
endif

# The browser extension: browser/ packed as a .zip for the Chromium family and an
# unsigned .xpi for Firefox, in dist/ (scripts/browser-extension.sh).
.PHONY: browser-extension
browser-extension: deps
	./scripts/browser-extension.sh dist

# The GNOME Shell extension as the zips `gnome-extensions pack` makes, one per build, in dist/
# (a user installs one with `gnome-extensions install`; extensions.gnome.org takes them as uploads).
.PHONY: gnome-extension
gnome-extension: deps
	./scripts/gnome-extension-pack.sh dist

# The Debian package (debian/, DESIGN §16). `make dist`: the source package in dist/ (the tracked
# files and vendor/, the pinned Swift packages: scripts/source-package.sh). `make deb`: the binary
# package built from it with the network off, as distributions build (scripts/binary-package.sh),
# into dist/ with its -dbgsym package, .buildinfo and .changes. `make deb-test` installs it on this
# machine, uses it (the browsers included), removes it and checks nothing is left
# (scripts/deb-test.sh; root only). Names are read when a recipe runs, after the packaging tools are in.
SOURCE_NAME = $$(dpkg-parsechangelog -SSource)_$$(dpkg-parsechangelog -SVersion)
DEB_NAME = $$(dpkg-parsechangelog -SVersion)_$$(dpkg-architecture -qDEB_HOST_ARCH)

.PHONY: dist deb deb-test
dist:
	@./scripts/install-deps.sh deb
	./scripts/source-package.sh dist

deb: dist
	./scripts/binary-package.sh dist/$(SOURCE_NAME).dsc dist

deb-test: deb
	./scripts/deb-test.sh dist/dbmultiverse_$(DEB_NAME).deb

# The pictures of the README and docs/ (docs/images/MANIFEST): the real-host checks (dunst, Waybar
# under sway, GNOME Shell, plasmoidviewer) run with the built binary, as their tests run them, and
# their screenshots cropped and optimised into docs/images/ (scripts/screenshots.sh; it installs
# pngquant, optipng and an emoji font, which only it needs).
.PHONY: screenshots
screenshots: deps
	swift build --product dbmultiverse
	./scripts/screenshots.sh "$$(swift build --show-bin-path)/dbmultiverse"

# The benchmark: the release-built service and notifier on a private bus, linked
# statically and dynamically, each measured against the Ping floor of the same run.
BENCH_BIN = $(shell swift build -c release --show-bin-path 2>/dev/null)/dbmultiverse-bench
DYNAMIC_BIN = $(shell swift build -c release --scratch-path .build-dynamic --show-bin-path 2>/dev/null)/dbmultiverse
IDLE_SECONDS ?= 60

.PHONY: bench
bench: build
	swift build $(RELEASE_FLAGS) --product dbmultiverse-bench
	swift build $(RELEASE_FLAGS) --product dbus-reference-service
	swift build -c release --scratch-path .build-dynamic --product dbmultiverse
	"$(BENCH_BIN)" "$(RELEASE_BIN)" --label static --idle-seconds $(IDLE_SECONDS) --json bench-results/static.json
	"$(BENCH_BIN)" "$(DYNAMIC_BIN)" --label dynamic --idle-seconds $(IDLE_SECONDS) --json bench-results/dynamic.json
	$(MAKE) --no-print-directory bench-site
	$(MAKE) --no-print-directory bench-history

# The site code: chapter-list parsing beside Python's lxml and BeautifulSoup (installed
# here with pip: the benchmark is their only user), and `sync` answered by a 304 (wall time, peak
# RSS through GNU time). SITE_ROUNDS parses per parser (BeautifulSoup gets a tenth).
SITE_BENCH_BIN = $(shell swift build -c release --show-bin-path 2>/dev/null)/dbmultiverse-site-bench
SITE_ROUNDS ?= 200

.PHONY: bench-site
bench-site: build
	python3 -c "import lxml, bs4" 2>/dev/null || python3 -m pip install --quiet lxml beautifulsoup4
	swift build $(RELEASE_FLAGS) --product dbmultiverse-site-bench
	"$(SITE_BENCH_BIN)" "$(RELEASE_BIN)" --rounds $(SITE_ROUNDS) --json bench-results/site.json

# The import-history lookup on a 100 000-visit Firefox and Chromium history: p50/p99
# end to end (find profiles, copy, open, query) over HISTORY_RUNS runs, and the copy's share.
HISTORY_BENCH_BIN = $(shell swift build -c release --show-bin-path 2>/dev/null)/dbmultiverse-history-bench
HISTORY_RUNS ?= 100

.PHONY: bench-history
bench-history: deps
	swift build $(RELEASE_FLAGS) --product dbmultiverse-history-bench
	"$(HISTORY_BENCH_BIN)" --runs $(HISTORY_RUNS)

# The order lld lays out the release binary's code in (linker/dbmultiverse.order): the functions
# the service and notifier run, recorded under callgrind. Rerun after larger changes.
.PHONY: symbol-order
symbol-order: deps
	./scripts/symbol-order.sh

# The fault tests with big counts: 200 SIGKILLs during updates, 32 clients × 1000
# calls, against the debug-built service on private buses. SOAK_KILL_CYCLES=N changes the kills.
.PHONY: soak
soak: deps
	swift build --build-tests
	DBMULTIVERSE_SOAK=1 swift test --skip-build --filter SoakTests

# The suite once per environment it must not depend on (private or long TMPDIR, umask 077, bus
# and DBMULTIVERSE_* variables set, no HOME, read-only HOME, not root, no nobody user, noexec /tmp):
# scripts/test-environments.sh; the scenarios that change users or mounts need root.
.PHONY: test-environments
test-environments: deps
	swift build --build-tests
	./scripts/test-environments.sh

# Hardening. `make fuzz`: libFuzzer on the deep-link, storage-JSON and message-body
# parsers and the site's markup extraction for FUZZ_SECONDS each (scripts/fuzz.sh; crashes land in fuzz-artifacts/).
# `make sanitize`: the test suite under AddressSanitizer (with LeakSanitizer) and under
# ThreadSanitizer, each in its own scratch path. A leak fails the run: the test binary then exits
# non-zero, and so does an instrumented service or CLI process the tests start, which fails the
# tests that check its status (they inherit LSAN_OPTIONS, hence the absolute path; a process
# killed with SIGKILL is never checked). Leaks that are not ours are listed, each with its
# reason, in scripts/lsan-suppressions.txt.
FUZZ_SECONDS ?= 60
TSAN_SUPPRESSIONS = $(CURDIR)/scripts/tsan-suppressions.txt
LSAN_SUPPRESSIONS = $(CURDIR)/scripts/lsan-suppressions.txt

.PHONY: fuzz fuzz-long sanitize sanitize-address sanitize-thread
fuzz:
	./scripts/fuzz.sh $(FUZZ_SECONDS)

# Deep: each target to 10 million executions (an hour at most each), niced, one at a time, the
# quick ones first.
fuzz-long:
	FUZZ_RUNS=10000000 nice -n 10 ./scripts/fuzz.sh 3600 syncjson chapterjson entrydict dbusbody browsermessage sitemarkup deeplink watchtoken

sanitize: sanitize-address sanitize-thread

sanitize-address: deps
	swift build --build-tests --sanitize=address --scratch-path .build-asan
	LSAN_OPTIONS="$$LSAN_OPTIONS suppressions=$(LSAN_SUPPRESSIONS)" \
		swift test --skip-build --sanitize=address --scratch-path .build-asan

sanitize-thread: deps
	swift build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS="$$TSAN_OPTIONS suppressions=$(TSAN_SUPPRESSIONS)" \
		swift test --skip-build --sanitize=thread --scratch-path .build-tsan
