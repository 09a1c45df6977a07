//! The `satsoko` command; all the work is in the library's `cli` module.

/// mimalloc frees a stopped solve's memory several times faster than the system
/// allocator (Cargo.toml says how much); `--no-default-features` builds without it.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(satsoko::cli::run());
}
