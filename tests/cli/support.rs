//! Running the binary from tests.

use std::path::PathBuf;
use std::process::Output;

/// The repository root (where `fixtures/` is).
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cargo-speedup speedup ARGS...` in `dir` with colours off and returns its output.
pub(crate) fn run_in(dir: &std::path::Path, args: &[&str]) -> Output {
    run_with_env(dir, args, &[])
}

/// [`run_in`] with more environment variables, in the tests' known environment
/// ([`crate::environment::tool`]): cargo's target directory is the project's own (`target/`) unless a test
/// sets one, and a `CARGO_TARGET_DIR`, `COLUMNS` or `CRITERION_HOME` of the environment the tests run in
/// is not passed on.
pub(crate) fn run_with_env(
    dir: &std::path::Path,
    args: &[&str],
    env: &[(&str, &std::path::Path)],
) -> Output {
    crate::environment::tool()
        .arg("speedup")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        // Reports name the minute they were made: a fixed one keeps snapshots stable.
        .env("SOURCE_DATE_EPOCH", "1800000000")
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs")
}

/// Runs `cargo-speedup speedup ARGS...` at the repository root.
#[allow(dead_code)]
pub(crate) fn run(args: &[&str]) -> Output {
    run_in(&root(), args)
}

/// Copies the directory tree `from` to `to`.
#[allow(dead_code)]
pub(crate) fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("the directory") {
        let path = entry.expect("an entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

/// The hostile corpus (`tests/hostile/names.json`), which every sink test reads.
#[allow(dead_code)]
pub(crate) fn hostile_names() -> Vec<String> {
    let path = root().join("tests/hostile/names.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("the corpus")).expect("a JSON array")
}

/// The benchmark named `name` in a JSON report.
#[allow(dead_code)]
pub(crate) fn benchmark<'a>(json: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    json["benchmarks"]
        .as_array()
        .expect("benchmarks")
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("{name} not in the report"))
}
