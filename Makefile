# The README's two commands: `make demo` and `make test` (and `make bench` for the benchmarks).
.PHONY: deps build demo test bench bench-deps install

PREFIX ?= /usr/local

deps:
	@scripts/install-dependencies.sh

build: deps
	swift build

demo: build
	swift run --skip-build stackday demo

# The hostile-tenant suite measures wall-clock latency (p99 under 50 ms, answers within a second):
# it runs on its own, after the rest, so the other suites' servers do not share its two cores.
# The convergence test runs its 12 seeds in `swift test` alone; here 150 more of each store
# (312 in all, about six minutes with groups), on their own so that they do not crowd the timed suites.
# Then the sanitizer, browser, API, calendar and push checks, side by side (scripts/checks.sh), and
# last the binary `make install` ships, built as it ships and run end to end.
test:
	@scripts/install-dependencies.sh --tests
	swift test --skip HostileTenantTests --skip ConvergenceTests
	swift test --skip-build --filter HostileTenantTests
	STACKDAY_CONVERGENCE_SEEDS=150 swift test --skip-build --filter ConvergenceTests
	scripts/checks.sh
	scripts/shipped-binary-test.sh

bench-deps: deps
	@scripts/install-benchmark-tools.sh

# The shipped build (the Swift runtime linked in, and the link Package.swift describes for
# STACKDAY_STATIC=1), then one table of ratios.
bench: bench-deps
	STACKDAY_STATIC=1 swift build -c release --static-swift-stdlib
	.build/release/stackday-bench

# A release binary with the Swift runtime linked in (the built-in policies are compiled into it),
# its manual page and its bash, zsh and fish completions, each generated from the binary itself.
install: deps
	STACKDAY_STATIC=1 swift build -c release --static-swift-stdlib --product stackday
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 .build/release/stackday "$(DESTDIR)$(PREFIX)/bin/stackday"
	install -d "$(DESTDIR)$(PREFIX)/share/man/man1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
		"$(DESTDIR)$(PREFIX)/share/zsh/site-functions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	.build/release/stackday --generate-manual > "$(DESTDIR)$(PREFIX)/share/man/man1/stackday.1"
	.build/release/stackday --generate-completion-script bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/stackday"
	.build/release/stackday --generate-completion-script zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_stackday"
	.build/release/stackday --generate-completion-script fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/stackday.fish"
