# Builds the release binary as $(EXE) (OpenBench's convention: `make EXE=sissa-x`), so that
# engine-testing frameworks can build Sissa; `sissa bench` prints the `N nodes N nps` line
# they read.
EXE ?= sissa

.PHONY: all clean
all:
	cargo build --release
	cp target/release/sissa $(EXE)

clean:
	cargo clean
	rm -f $(EXE)
