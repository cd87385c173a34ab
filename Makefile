# DBMultiverse Desktop. `make run` builds and runs the service; `make test` runs the tests.
PREFIX ?= $(HOME)/.local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
RELEASE_FLAGS = -c release --static-swift-stdlib
RELEASE_BIN = $(shell swift build $(RELEASE_FLAGS) --show-bin-path 2>/dev/null)/dbmultiverse

.PHONY: all deps build run test clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	swift build $(RELEASE_FLAGS) --product dbmultiverse

run: build
	./scripts/run-service.sh "$(RELEASE_BIN)"

test: deps
	swift build --build-tests
	swift test --skip-build

clean:
	swift package clean
