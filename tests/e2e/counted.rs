//! The crates of the instruction-count tests (`instructions*.rs`): benchmarks that run a known number of
//! instructions (`nop`s written with `asm!`, x86_64), where a planted commit calls one more
//! `#[inline(never)]` function of [`EXTRA`] `nop`s in the benchmark `changed`; and whether Valgrind can
//! count them here.

use crate::support::*;

/// The instructions of the routine's own work, and those the planted commit adds.
pub(crate) const WORK: u64 = 20_000;
pub(crate) const EXTRA: u64 = 100;

/// `src/lib.rs`: `work()` runs [`WORK`] `nop`s and `extra()` [`EXTRA`].
fn lib() -> String {
    format!(
        r#"/// {WORK} instructions.
#[inline(never)]
pub fn work() -> u64 {{
    unsafe {{ core::arch::asm!(".rept {WORK}", "nop", ".endr", options(nomem, nostack, preserves_flags)) }}
    1
}}

/// {EXTRA} instructions.
#[inline(never)]
pub fn extra() {{
    unsafe {{ core::arch::asm!(".rept {EXTRA}", "nop", ".endr", options(nomem, nostack, preserves_flags)) }}
}}
"#
    )
}

/// Writes the crate's files (`manifest`, the library, `bench` as `benches/work.rs`) and its lockfile.
fn write_crate(dir: &std::path::Path, manifest: &str, bench: &str) {
    write(
        dir,
        &[
            ("Cargo.toml", manifest),
            ("src/lib.rs", &lib()),
            ("benches/work.rs", bench),
            (".gitignore", "target\n"),
        ],
    );
    if !dir.join("Cargo.lock").exists() {
        generate_lockfile(dir);
    }
}

/// A criterion crate: the benchmarks `changed` and `same` each run `work()`, `changed` also `extra()` when
/// `planted`, then `more` (more `c.bench_function` calls, Rust source). The manifest is the end-to-end
/// fixture crate's (criterion 0.8, unoptimised), so that its compiled dependencies are reused.
pub(crate) fn write_criterion_counted(dir: &std::path::Path, planted: bool, more: &str) {
    let manifest = criterion_crate(0)
        .into_iter()
        .find(|(path, _)| *path == "Cargo.toml")
        .map(|(_, text)| text)
        .expect("the fixture crate's manifest");
    let changed = match planted {
        true => "{ demo::extra(); demo::work() }",
        false => "demo::work()",
    };
    let bench = format!(
        r#"use criterion::{{criterion_group, criterion_main, Criterion}};
use std::hint::black_box;

fn bench(c: &mut Criterion) {{
    c.bench_function("changed", |b| b.iter(|| black_box({changed})));
    c.bench_function("same", |b| b.iter(|| black_box(demo::work())));{more}
}}

criterion_group!(benches, bench);
criterion_main!(benches);
"#
    );
    write_crate(dir, &manifest, &bench);
}

/// The crate of [`write_criterion_counted`] with one more benchmark, `batched`, whose setup is `work()`
/// ([`WORK`] `nop`s) and whose routine adds one to what the setup gave: criterion's `iter_with_setup` (an
/// `iter_batched` of one input per batch), the setup run once per iteration outside the timed routine.
pub(crate) fn write_criterion_batched(dir: &std::path::Path, planted: bool) {
    let batched = r#"
    c.bench_function("batched", |b| b.iter_with_setup(demo::work, |x| black_box(x + 1)));"#;
    write_criterion_counted(dir, planted, batched);
}

/// A divan crate (divan 0.1.21, the bench profile's own optimisation): the benchmarks `changed` and `same`
/// each run `work()`, `changed` also `extra()` when `planted`.
pub(crate) fn write_divan_counted(dir: &std::path::Path, planted: bool) {
    let manifest = r#"[package]
name = "demo"
version = "0.1.0"
edition = "2021"

[dev-dependencies]
divan = "=0.1.21"

[[bench]]
name = "work"
harness = false
"#;
    let changed = match planted {
        true => "demo::extra();\n    ",
        false => "",
    };
    let bench = format!(
        r#"fn main() {{
    divan::main();
}}

#[divan::bench]
fn changed() -> u64 {{
    {changed}divan::black_box(demo::work())
}}

#[divan::bench]
fn same() -> u64 {{
    divan::black_box(demo::work())
}}
"#
    );
    write_crate(dir, manifest, &bench);
}

/// Why the instruction-count tests cannot run here, if they cannot.
pub(crate) fn cannot_run() -> Option<&'static str> {
    if !cfg!(target_arch = "x86_64") {
        return Some("the planted work is x86_64 `nop`s");
    }
    match command("valgrind").arg("--version").output() {
        Ok(out) if out.status.success() => None,
        _ => Some("valgrind is not on the PATH (apt-get install valgrind)"),
    }
}

/// The benchmark `name`'s entry in a JSON report.
pub(crate) fn benchmark<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["benchmarks"]
        .as_array()
        .and_then(|all| all.iter().find(|b| b["name"] == name))
        .unwrap_or_else(|| panic!("no benchmark {name} in {report}"))
}

/// A repository of two commits of the crate `write` makes, without then with the planted call ("base", then
/// "one more call in `changed`"), and the test's slot among the end-to-end tests; `None`, saying why, where
/// counts cannot be taken here ([`cannot_run`]).
pub(crate) fn planted_repository(
    write: impl Fn(&std::path::Path, bool),
) -> Option<(Slot, tempfile::TempDir)> {
    if let Some(why) = cannot_run() {
        eprintln!("skipped: {why}");
        return None;
    }
    let slot = serial();
    let repo = repository();
    write(repo.path(), false);
    commit(repo.path(), "base");
    write(repo.path(), true);
    commit(repo.path(), "one more call in `changed`");
    Some((slot, repo))
}
