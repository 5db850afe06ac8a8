//! The environment every process the tests start runs in: the tests' own, less each variable that
//! changes what cargo-speedup, cargo, criterion or git do. A developer's shell may hold any of them (a
//! `CARGO_TARGET_DIR` shared by all their projects, `NO_COLOR`, a `COLUMNS` of their terminal, a
//! `RUSTFLAGS`, a `GIT_DIR` of a hook); a test that needs one sets it on the command after [`command`],
//! and then it is the one the test chose. Both test crates start their processes here (the CLI suite
//! includes this file as the end-to-end suite does), so a variable is cleared for every test at once.
//!
//! Kept: the toolchain the tests run with (`PATH`, `CARGO`, `RUSTC`, `RUSTUP_TOOLCHAIN`, `RUSTUP_HOME`,
//! `CARGO_HOME`), the registry and network settings (`CARGO_NET_*`, `CARGO_HTTP_*`, `CARGO_REGISTRIES_*`),
//! `HOME` and the rest of the system's.
//!
//! Must not: set a value of its own (each suite's runner sets `NO_COLOR`, `SOURCE_DATE_EPOCH` and the
//! target directory it wants), or clear the toolchain's variables.

use std::ffi::OsStr;
use std::process::Command;

/// Variables cleared by name: where cargo builds and cargo-speedup and criterion keep their files
/// (`CARGO_TARGET_DIR`, `CARGO_BUILD_TARGET_DIR`, `CRITERION_HOME`), the report's width, colour and date
/// (`COLUMNS`, `NO_COLOR`, `CLICOLOR`, `CLICOLOR_FORCE`, `TERM`, `SOURCE_DATE_EPOCH`), what cargo builds and
/// how it says so (`RUSTFLAGS` and the others the tool's cache key reads, `CARGO_INCREMENTAL`, `CARGO_LOG`),
/// an outer build's jobserver, the package cargo runs the test binary for (whose variables a user's shell
/// does not hold), and backtraces, which change the text of an error.
pub(crate) const CLEARED: [&str; 28] = [
    "CARGO_TARGET_DIR",
    "CARGO_BUILD_TARGET_DIR",
    "CRITERION_HOME",
    "COLUMNS",
    "LINES",
    "NO_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "TERM",
    "SOURCE_DATE_EPOCH",
    "RUSTFLAGS",
    "RUSTDOCFLAGS",
    "CARGO_ENCODED_RUSTFLAGS",
    "CARGO_ENCODED_RUSTDOCFLAGS",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "CARGO_INCREMENTAL",
    "CARGO_LOG",
    "CARGO_MAKEFLAGS",
    "MAKEFLAGS",
    "MFLAGS",
    "CARGO_MANIFEST_DIR",
    "CARGO_MANIFEST_PATH",
    "CARGO_CRATE_NAME",
    "CARGO_PRIMARY_PACKAGE",
    "CARGO_RUSTC_CURRENT_DIR",
    "RUST_BACKTRACE",
    "RUST_LIB_BACKTRACE",
];

/// Variables cleared by prefix: cargo's target directory and per-target settings (`CARGO_TARGET_DIR`,
/// `CARGO_TARGET_<triple>_RUNNER`), its `[build]`, `[profile]`, `[term]` and unstable settings
/// (`CARGO_BUILD_TARGET_DIR`, `CARGO_BUILD_JOBS`, ...), the package's `CARGO_PKG_*`, criterion's own
/// (`CRITERION_DEBUG`), and git's (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`, `GIT_CONFIG_COUNT`, ...),
/// which would point the tests' repositories elsewhere.
pub(crate) const CLEARED_PREFIXES: [&str; 8] = [
    "CARGO_TARGET_",
    "CARGO_BUILD_",
    "CARGO_PROFILE_",
    "CARGO_TERM_",
    "CARGO_UNSTABLE_",
    "CARGO_PKG_",
    "CRITERION_",
    "GIT_",
];

/// Whether the variable `name` is cleared from every process the tests start.
pub(crate) fn cleared(name: &str) -> bool {
    CLEARED.contains(&name) || CLEARED_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// A command for `program` in the tests' known environment: every [`CLEARED`] name removed whether or
/// not the tests' environment holds it, and every variable of that environment with a
/// [`CLEARED_PREFIXES`] prefix. Variables set on the command afterwards are passed as set.
pub(crate) fn command(program: impl AsRef<OsStr>) -> Command {
    let mut command = Command::new(program);
    for name in CLEARED {
        command.env_remove(name);
    }
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(cleared) {
            command.env_remove(name);
        }
    }
    command
}

/// The `cargo-speedup` binary under test, in the known environment ([`command`]).
pub(crate) fn tool() -> Command {
    command(env!("CARGO_BIN_EXE_cargo-speedup"))
}

/// The cargo that runs the tests (`CARGO`, else the one on the `PATH`), in the known environment.
pub(crate) fn cargo() -> Command {
    command(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}
