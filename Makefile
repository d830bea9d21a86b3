# The README's two commands: `make demo` and `make test`.
.PHONY: deps build demo test

deps:
	@scripts/install-dependencies.sh

build: deps
	swift build

demo: build
	swift run --skip-build stackday demo

test: deps
	swift test
