//! The `satsoko` command; all the work is in the library's `cli` module.

fn main() {
    std::process::exit(satsoko::cli::run());
}
