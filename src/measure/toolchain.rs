//! The toolchain the revisions are built with: the one that runs `cargo speedup` (cargo sets `CARGO`), or
//! the rustup toolchain `--toolchain NAME` names (e.g. `nightly`, for libtest `#[bench]`), reached through
//! rustup's `cargo` and `rustc` proxies (beside `rustup` on the `PATH`) with `RUSTUP_TOOLCHAIN` set, as
//! `cargo +NAME` does. The `CARGO` that runs the subcommand is the running toolchain's own binary, which
//! would ignore the override; the proxies do not.
//!
//! Chosen once per process ([`choose`], before anything is built); every cargo, `cargo metadata` and
//! `rustc -vV` of the measuring layer goes through [`cargo`], [`metadata`] and [`rustc`].
//!
//! Must not: install a toolchain, or change which one a run of the user's own `cargo` uses.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use super::MeasureError;

/// The toolchain chosen with `--toolchain`, and the directory of rustup's proxies.
static CHOSEN: OnceLock<(String, PathBuf)> = OnceLock::new();

/// Builds with the rustup toolchain `name` from now on (this process), after checking that rustup is
/// there and has it installed. Choosing again the same name is a no-op; another name is refused.
pub(crate) fn choose(name: &str) -> Result<(), MeasureError> {
    if let Some((chosen, _)) = CHOSEN.get() {
        return match chosen == name {
            true => Ok(()),
            false => Err(refused(name, "one toolchain per run")),
        };
    }
    let rustup = find_on_path("rustup")
        .ok_or_else(|| refused(name, "a rustup toolchain, and rustup is not on the PATH"))?;
    let installed = Command::new(&rustup)
        .args(["which", "--toolchain", name, "cargo"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !installed {
        return Err(refused(
            name,
            "an installed rustup toolchain (`rustup toolchain list` shows them; `rustup toolchain install NAME` adds one)",
        ));
    }
    let proxies = rustup.parent().map(PathBuf::from).unwrap_or_default();
    let _ = CHOSEN.set((name.to_string(), proxies));
    Ok(())
}

fn refused(name: &str, expected: &'static str) -> MeasureError {
    MeasureError::Option {
        flag: "--toolchain",
        value: name.to_string(),
        expected,
    }
}

/// The first `program` in the `PATH`'s directories.
fn find_on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

/// The cargo the revisions are built with.
pub(crate) fn cargo() -> Command {
    tool("cargo", "CARGO")
}

/// The rustc whose `-vV` keys the cache and the fingerprint.
pub(crate) fn rustc() -> Command {
    tool("rustc", "RUSTC")
}

/// `program` of the chosen toolchain (its rustup proxy, told the toolchain's name), else the one the
/// variable `env` names, else `program` from the `PATH`.
fn tool(program: &str, env: &str) -> Command {
    match CHOSEN.get() {
        Some((name, proxies)) => {
            let mut command = Command::new(proxies.join(program));
            command.env("RUSTUP_TOOLCHAIN", name);
            command
        }
        None => Command::new(std::env::var_os(env).unwrap_or_else(|| program.into())),
    }
}

/// A `cargo metadata` through the same cargo.
pub(crate) fn metadata() -> cargo_metadata::MetadataCommand {
    let mut command = cargo_metadata::MetadataCommand::new();
    match CHOSEN.get() {
        Some((name, proxies)) => {
            command.cargo_path(proxies.join("cargo"));
            command.env("RUSTUP_TOOLCHAIN", name);
        }
        None => {
            command
                .cargo_path(std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo")));
        }
    }
    command
}

/// `rustc -vV` as run in `dir` (so that a `rust-toolchain` file there applies); empty when it fails.
pub(crate) fn rustc_version(dir: &Path) -> String {
    let mut command = rustc();
    command.arg("-vV").current_dir(dir);
    super::process::capture(&mut command)
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toolchain_rustup_does_not_have_is_refused_naming_it() {
        let error = choose("no-such-toolchain-0.0").expect_err("not installed");
        let text = error.to_string();
        assert!(text.contains("--toolchain"), "{text}");
        assert!(text.contains("no-such-toolchain-0.0"), "{text}");
        assert!(CHOSEN.get().is_none(), "a refused toolchain is not chosen");
    }
}
