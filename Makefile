# DBMultiverse Desktop. `make run` builds and runs the service; `make test` runs the tests.
PREFIX ?= $(HOME)/.local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
RELEASE_FLAGS = -c release --static-swift-stdlib
RELEASE_BIN = $(shell swift build $(RELEASE_FLAGS) --show-bin-path 2>/dev/null)/dbmultiverse

.PHONY: all deps build run test clean install uninstall install-binary translations pot update-po

all: build translations

deps:
	@./scripts/test/install-deps.sh

build: deps
	swift build $(RELEASE_FLAGS) --product dbmultiverse
	swift build $(RELEASE_FLAGS) --product dbmultiverse-service
	swift build $(RELEASE_FLAGS) --product dbmultiverse-notifier
	swift build $(RELEASE_FLAGS) --product dbmultiverse-browser-host

run: build
	./scripts/dev/run-service.sh "$(RELEASE_BIN)"

# The whole suite, as CI runs it: installs what the tests need, builds, runs, summarises
# (scripts/test/run-tests.sh; TEST_ARGS passes e.g. --filter NAME to swift test).
test: deps
	@./scripts/test/run-tests.sh $(TEST_ARGS)

clean:
	swift package clean
	rm -rf $(I18N)

# ---- translations (docs/translations.md) -----------------------------------------------------
# One catalogue, text domain dbmultiverse, po/ at the root: `make translations` compiles po/LINGUAS'
# languages into $(I18N)/locale and merges them into the desktop files and the AppStream metainfo;
# `make pot` regenerates po/dbmultiverse.pot from po/POTFILES; `make update-po` merges it into po/*.po.
I18N = .build/i18n
LINGUAS = $(shell sed 's/\#.*//' po/LINGUAS)
LOCALE_DIR = $(DATADIR)/locale
LOCALE_FILES = $(foreach lang,$(LINGUAS),$(LOCALE_DIR)/$(lang)/LC_MESSAGES/dbmultiverse.mo)

translations:
	./scripts/build/translations.sh build $(I18N)

pot:
	./scripts/build/translations.sh pot

update-po:
	./scripts/build/translations.sh update

# ---- install / uninstall (docs/install.md; docs/deep-links.md) -------------------------------------
# `make install` builds the release binary; `make install BINARY=path` installs a prebuilt one.
# DESTDIR is a staging root: the files go under $(DESTDIR)$(PREFIX), the paths written into
# them name $(PREFIX), and the desktop database / scheme registration are left to the package.
BINARY ?=
APP_ID = com.nobadi.DBMultiverse
INSTALLED_BIN = $(BINDIR)/dbmultiverse
# The service's, the notifier's and the browser host's own executables (docs/architecture.md, "The processes"), where a
# desktop's own services live: $(PREFIX)/libexec/dbmultiverse (the package: /usr/libexec/dbmultiverse).
LIBEXECDIR = $(PREFIX)/libexec/dbmultiverse
LIBEXEC_PROGRAMS = dbmultiverse-service dbmultiverse-notifier dbmultiverse-browser-host
# What the browsers' host manifests name: the browser host's own executable.
BROWSER_HOST_BIN = $(LIBEXECDIR)/dbmultiverse-browser-host
APPLICATIONS_DIR = $(DATADIR)/applications
# The tray item's IconThemePath: a theme folder of its own, found by hosts when $(DATADIR) is not
# one of the desktop's data directories (desktop/icons/index.theme says why it has an index).
TRAY_ICONS = $(DATADIR)/dbmultiverse/icons
# The systemd user units' folder: $(DATADIR)/systemd/user by default (systemd reads it under
# ~/.local/share and /usr/share); a package uses /usr/lib/systemd/user (debian/rules).
SYSTEMD_USER_DIR ?= $(DATADIR)/systemd/user
# Where the browser extension's host manifests go: `user` (the browsers' folders in $HOME) or
# `system` (their system-wide folders; scripts/build/browser-hosts.sh lists them).
BROWSER_HOSTS ?= user
# The cards (docs/gnome-shell.md, docs/plasma.md): both builds of the GNOME Shell extension (43–44's
# `imports` build and 45+'s ES modules) and of the Plasma widget (5 and 6, with the installed binary's
# path written in) in CARDS_DIR, and the folders GNOME Shell and Plasma read made links to the builds
# that fit the desktop installed here (desktop/select-cards, installed as SELECT_CARDS: it reads the
# versions from the installed files, never from a running desktop, and runs again whenever the desktop
# changes — the package's dpkg trigger, or by hand). CARD_LINKS=no leaves the links to the package's
# maintainer scripts (debian/rules).
CARDS_DIR = $(DATADIR)/dbmultiverse/cards
SELECT_CARDS = $(LIBEXECDIR)/select-cards
CARD_LINKS ?= yes
INSTALL_FILES = \
	$(BINDIR)/dbmultiverse \
	$(foreach program,$(LIBEXEC_PROGRAMS),$(LIBEXECDIR)/$(program)) \
	$(DATADIR)/dbus-1/services/$(APP_ID).service \
	$(DATADIR)/dbus-1/interfaces/$(APP_ID).Widget1.xml \
	$(APPLICATIONS_DIR)/$(APP_ID).desktop \
	$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg \
	$(TRAY_ICONS)/hicolor/index.theme \
	$(TRAY_ICONS)/hicolor/scalable/apps/$(APP_ID).svg \
	$(SYSTEMD_USER_DIR)/dbmultiverse.service \
	$(SYSTEMD_USER_DIR)/dbmultiverse-notifier.service \
	$(SYSTEMD_USER_DIR)/dbmultiverse-sync.service \
	$(SYSTEMD_USER_DIR)/dbmultiverse-sync.timer \
	$(SELECT_CARDS) \
	$(METAINFO) \
	$(LOCALE_FILES) \
	$(foreach completion,$(COMPLETIONS),$(lastword $(subst :, ,$(completion))))
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
# Under the C locale: the scripts carry the options' help, which the binary translates otherwise.
define install_completion
	install -d "$(DESTDIR)$(dir $(lastword $(subst :, ,$(1))))"
	LC_ALL=C "$(DESTDIR)$(INSTALLED_BIN)" --generate-completion-script $(firstword $(subst :, ,$(1))) > "$(DESTDIR)$(lastword $(subst :, ,$(1))).tmp"
	sed '1{/^#!/d}' "$(DESTDIR)$(lastword $(subst :, ,$(1))).tmp" > "$(DESTDIR)$(lastword $(subst :, ,$(1)))"
	rm "$(DESTDIR)$(lastword $(subst :, ,$(1))).tmp"
	chmod 644 "$(DESTDIR)$(lastword $(subst :, ,$(1)))"

endef
# install_rewritten(source, destination): copies a text file with mode 644, writing the installed
# binary's absolute path as the command of every Exec=/ExecStart= line: a command in
# .../libexec/dbmultiverse/ becomes the same program in $(LIBEXECDIR), any other the CLI (and a
# unit's ConditionFileIsExecutable= names the same program as its ExecStart=).
define install_rewritten
	sed -e 's!^\(Exec\|ExecStart\|ConditionFileIsExecutable\)=[^ ]*/libexec/dbmultiverse/\([^ /]*\)!\1=$(LIBEXECDIR)/\2!' -e t \
		-e 's!^Exec=[^ ]*!Exec=$(INSTALLED_BIN)!' -e 's!^ExecStart=[^ ]*!ExecStart=$(INSTALLED_BIN)!' "$(1)" > "$(DESTDIR)$(2)"
	chmod 644 "$(DESTDIR)$(2)"
endef

# The libexec programs are taken from the folder of the CLI binary (BINARY's, or the release build's).
install-binary:
ifeq ($(BINARY),)
	swift build $(RELEASE_FLAGS) --product dbmultiverse
	install -D -m 755 "$(RELEASE_BIN)" "$(DESTDIR)$(BINDIR)/dbmultiverse"
	$(foreach program,$(LIBEXEC_PROGRAMS),swift build $(RELEASE_FLAGS) --product $(program)$(newline))
else
	install -D -m 755 "$(BINARY)" "$(DESTDIR)$(BINDIR)/dbmultiverse"
endif
	$(foreach program,$(LIBEXEC_PROGRAMS),install -D -m 755 "$(dir $(or $(BINARY),$(RELEASE_BIN)))$(program)" "$(DESTDIR)$(LIBEXECDIR)/$(program)"$(newline))

define newline


endef

install:
	@case "$(PREFIX)" in /*) ;; *) echo "make install: PREFIX must be an absolute path (got '$(PREFIX)')" >&2; exit 2;; esac
	@case "$(PREFIX)" in *[!A-Za-z0-9/._+@,=:~-]*) echo "make install: PREFIX goes into Exec= lines; use letters, digits and / . _ + @ , = : ~ - only (got '$(PREFIX)')" >&2; exit 2;; esac
	$(MAKE) --no-print-directory install-binary
	$(MAKE) --no-print-directory translations
	$(foreach lang,$(LINGUAS),install -D -m 644 $(I18N)/locale/$(lang)/LC_MESSAGES/dbmultiverse.mo "$(DESTDIR)$(LOCALE_DIR)/$(lang)/LC_MESSAGES/dbmultiverse.mo";)
	install -d "$(DESTDIR)$(DATADIR)/dbus-1/services" "$(DESTDIR)$(APPLICATIONS_DIR)" \
		"$(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps" "$(DESTDIR)$(SYSTEMD_USER_DIR)"
	$(call install_rewritten,dbus/$(APP_ID).service,$(DATADIR)/dbus-1/services/$(APP_ID).service)
	install -D -m 644 dbus/$(APP_ID).Widget1.xml "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/$(APP_ID).Widget1.xml"
	$(call install_rewritten,$(I18N)/$(APP_ID).desktop,$(APPLICATIONS_DIR)/$(APP_ID).desktop)
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
	rm -rf "$(DESTDIR)$(CARDS_DIR)"
	desktop/plasma/build.sh 5 "$(DESTDIR)$(CARDS_DIR)/plasma-5" "$(INSTALLED_BIN)"
	desktop/plasma/build.sh 6 "$(DESTDIR)$(CARDS_DIR)/plasma-6" "$(INSTALLED_BIN)"
	desktop/gnome-shell/build.sh 43 "$(DESTDIR)$(CARDS_DIR)/gnome-shell-43"
	desktop/gnome-shell/build.sh 45 "$(DESTDIR)$(CARDS_DIR)/gnome-shell-45"
	install -D -m 755 desktop/select-cards "$(DESTDIR)$(SELECT_CARDS)"
ifeq ($(CARD_LINKS),yes)
	"$(DESTDIR)$(SELECT_CARDS)" "$(DESTDIR)$(DATADIR)"
endif
	install -D -m 644 $(I18N)/$(APP_ID).metainfo.xml "$(DESTDIR)$(METAINFO)"
	$(foreach completion,$(COMPLETIONS),$(call install_completion,$(completion)))
ifeq ($(BROWSER_HOSTS),system)
	DESTDIR="$(DESTDIR)" ./scripts/build/browser-hosts.sh install-system "$(BROWSER_HOST_BIN)" "$(DATADIR)"
else
	DESTDIR="$(DESTDIR)" ./scripts/build/browser-hosts.sh install "$(BROWSER_HOST_BIN)"
endif
ifeq ($(DESTDIR),)
	-if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database "$(APPLICATIONS_DIR)"; fi
	-if command -v xdg-mime >/dev/null 2>&1; then xdg-mime default $(APP_ID).desktop x-scheme-handler/dbmultiverse; fi
endif

uninstall:
	-if [ -x "$(DESTDIR)$(SELECT_CARDS)" ]; then "$(DESTDIR)$(SELECT_CARDS)" --remove "$(DESTDIR)$(DATADIR)"; fi
	rm -f $(foreach file,$(INSTALL_FILES),"$(DESTDIR)$(file)")
	rm -rf "$(DESTDIR)$(CARDS_DIR)"
	-rmdir "$(DESTDIR)$(LIBEXECDIR)" 2>/dev/null
ifeq ($(BROWSER_HOSTS),system)
	DESTDIR="$(DESTDIR)" ./scripts/build/browser-hosts.sh uninstall-system "$(DATADIR)"
else
	DESTDIR="$(DESTDIR)" ./scripts/build/browser-hosts.sh uninstall
endif
ifeq ($(DESTDIR),)
	-if command -v update-desktop-database >/dev/null 2>&1 && [ -d "$(APPLICATIONS_DIR)" ]; then update-desktop-database "$(APPLICATIONS_DIR)"; fi
endif

# The widget's interface file, dbus/$(APP_ID).Widget1.xml, written from its Swift declaration
# (Sources/Widget/Widget1.swift, with the entry's keys and the errors) by BuildTools/widget-interface:
# run it after changing any of them (WidgetTests fails while the committed file differs).
.PHONY: interface
interface:
	swift build --product widget-interface
	"$$(swift build --show-bin-path)/widget-interface" > dbus/$(APP_ID).Widget1.xml.tmp
	mv dbus/$(APP_ID).Widget1.xml.tmp dbus/$(APP_ID).Widget1.xml

# The browser extension: browser/ packed as a .zip for the Chromium family and an
# unsigned .xpi for Firefox, in dist/ (scripts/build/browser-extension.sh).
.PHONY: browser-extension
browser-extension: deps
	./scripts/build/browser-extension.sh dist

# The GNOME Shell extension as the zips `gnome-extensions pack` makes, one per build, in dist/
# (a user installs one with `gnome-extensions install`; extensions.gnome.org takes them as uploads).
.PHONY: gnome-extension
gnome-extension: deps
	./scripts/build/gnome-extension-pack.sh dist

# The Debian package (debian/, docs/install.md#debian-package). `make dist`: the source package in dist/ (the tracked
# files and vendor/, the pinned Swift packages: scripts/packaging/source-package.sh). `make deb`: the binary
# package built from it with the network off, as distributions build (scripts/packaging/binary-package.sh),
# into dist/ with its -dbgsym package, .buildinfo and .changes. `make deb-test` installs it on this
# machine, uses it (the browsers included), removes it and checks nothing is left
# (scripts/packaging/deb-test.sh; root only). Names are read when a recipe runs, after the packaging tools are in.
SOURCE_NAME = $$(dpkg-parsechangelog -SSource)_$$(dpkg-parsechangelog -SVersion)
DEB_NAME = $$(dpkg-parsechangelog -SVersion)_$$(dpkg-architecture -qDEB_HOST_ARCH)

.PHONY: dist deb deb-test
dist:
	@./scripts/test/install-deps.sh deb
	./scripts/packaging/source-package.sh dist

deb: dist
	./scripts/packaging/binary-package.sh dist/$(SOURCE_NAME).dsc dist

deb-test: deb
	./scripts/packaging/deb-test.sh dist/dbmultiverse_$(DEB_NAME).deb

# A release (docs/releasing.md). `make release-version VERSION=0.2.0 SUMMARY="…"`: the new version's
# debian/changelog entry and AppStream <release> (the version every build takes from the changelog:
# scripts/build/project-version.sh).
.PHONY: release-version
release-version:
	./scripts/packaging/release-version.sh "$(VERSION)" "$(SUMMARY)"

# `make release [SIGNING_KEY=FINGERPRINT]`: every file a release publishes in dist/release/ (the source and
# binary packages, the stores' uploads checked by the stores' offline checks, SHA256SUMS and its signature):
# scripts/packaging/release.sh.
.PHONY: release
release:
	@./scripts/test/install-deps.sh deb
	SIGNING_KEY="$(SIGNING_KEY)" ./scripts/packaging/release.sh

# `make repo REPO=DIR DEBS="a.deb b.deb" SIGNING_KEY=FINGERPRINT` (GNUPGHOME from the environment): the
# apt repository of static files in DIR, with DEBS added to what it holds, signed; without DEBS, signed
# again (a new Valid-Until) — scripts/packaging/apt-repository.sh.
.PHONY: repo
repo:
	./scripts/packaging/apt-repository.sh "$(REPO)" "$(SIGNING_KEY)" $(DEBS)

# The pictures of the README and docs/ (docs/images/MANIFEST): the real-host checks (dunst, Waybar
# under sway, GNOME Shell, plasmoidviewer) run with the built binary, as their tests run them, and
# their screenshots cropped and optimised into docs/images/ (scripts/real-hosts/screenshots.sh; it installs
# pngquant, optipng and an emoji font, which only it needs).
.PHONY: screenshots
screenshots: deps
	swift build --product dbmultiverse
	swift build --product dbmultiverse-service
	swift build --product dbmultiverse-notifier
	./scripts/real-hosts/screenshots.sh "$$(swift build --show-bin-path)/dbmultiverse"

# The benchmark: the release-built service and notifier on a private bus, linked
# statically and dynamically, each measured against the Ping floor of the same run, beside a C
# libdbus and a C GDBus reference service (Benchmarks/gdbus-reference-service.c; libglib2.0-dev).
BENCH_BIN = $(shell swift build -c release --show-bin-path 2>/dev/null)/dbmultiverse-bench
DYNAMIC_BIN = $(shell swift build -c release --scratch-path .build-dynamic --show-bin-path 2>/dev/null)/dbmultiverse
IDLE_SECONDS ?= 60

.PHONY: bench
bench: build
	swift build $(RELEASE_FLAGS) --product dbmultiverse-bench
	swift build $(RELEASE_FLAGS) --product dbus-reference-service
	$(CC) -O2 -o "$(dir $(BENCH_BIN))gdbus-reference-service" Benchmarks/gdbus-reference-service.c $$(pkg-config --cflags --libs gio-2.0)
	swift build -c release --scratch-path .build-dynamic --product dbmultiverse
	swift build -c release --scratch-path .build-dynamic --product dbmultiverse-service
	swift build -c release --scratch-path .build-dynamic --product dbmultiverse-notifier
	swift build -c release --scratch-path .build-dynamic --product dbmultiverse-browser-host
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
	./scripts/dev/symbol-order.sh

# The fault tests with big counts: 200 SIGKILLs during updates, 32 clients × 1000
# calls, against the debug-built service on private buses. SOAK_KILL_CYCLES=N changes the kills.
.PHONY: soak
soak: deps
	swift build --build-tests
	DBMULTIVERSE_SOAK=1 swift test --skip-build --filter SoakTests

# The suite once per environment it must not depend on (private or long TMPDIR, umask 077, bus
# and DBMULTIVERSE_* variables set, no HOME, read-only HOME, not root, no nobody user, noexec /tmp):
# scripts/test/test-environments.sh; the scenarios that change users or mounts need root.
.PHONY: test-environments
test-environments: deps
	swift build --build-tests
	./scripts/test/test-environments.sh

# Hardening. `make fuzz`: libFuzzer on the deep-link, storage-JSON and message-body
# parsers, the site's markup extraction and the catalogue check for FUZZ_SECONDS each (scripts/dev/fuzz.sh; crashes land in fuzz-artifacts/).
# `make sanitize`: the test suite under AddressSanitizer (with LeakSanitizer) and under
# ThreadSanitizer, each in its own scratch path. A leak fails the run: the test binary then exits
# non-zero, and so does an instrumented service or CLI process the tests start, which fails the
# tests that check its status (they inherit LSAN_OPTIONS, hence the absolute path; a process
# killed with SIGKILL is never checked). Leaks that are not ours are listed, each with its
# reason, in scripts/dev/lsan-suppressions.txt.
FUZZ_SECONDS ?= 60
TSAN_SUPPRESSIONS = $(CURDIR)/scripts/dev/tsan-suppressions.txt
LSAN_SUPPRESSIONS = $(CURDIR)/scripts/dev/lsan-suppressions.txt

.PHONY: fuzz fuzz-long sanitize sanitize-address sanitize-thread
fuzz:
	./scripts/dev/fuzz.sh $(FUZZ_SECONDS)

# Deep: each target to 10 million executions (two hours at most each: watchtoken, the slowest,
# took 82 minutes on one core), niced, one at a time, the quick ones first.
fuzz-long:
	FUZZ_RUNS=10000000 nice -n 10 ./scripts/dev/fuzz.sh 7200 syncjson chapterjson entrydict dbusbody browsermessage sitemarkup deeplink watchtoken mocatalogue

sanitize: sanitize-address sanitize-thread

sanitize-address: deps
	swift build --build-tests --sanitize=address --scratch-path .build-asan
	LSAN_OPTIONS="$$LSAN_OPTIONS suppressions=$(LSAN_SUPPRESSIONS)" \
		swift test --skip-build --sanitize=address --scratch-path .build-asan

sanitize-thread: deps
	swift build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS="$$TSAN_OPTIONS suppressions=$(TSAN_SUPPRESSIONS)" \
		swift test --skip-build --sanitize=thread --scratch-path .build-tsan
