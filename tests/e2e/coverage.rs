//! Nothing left out in silence, measuring side: a bench target that needs a feature the comparison does not
//! enable is not built, and the rest is compared (`--features` or `--all-features` builds it and finds its
//! change); a bench target that does not build, or panics, at HEAD only is left out there and the rest
//! compared, where a target that fails at both sides is still an error (exit 2).

use crate::support::*;

/// The package `frames`: `benches/light.rs` (`split`, always the same work) and `benches/heavy.rs`
/// (`reassemble`, `factor` times the work), which, when `required`, only builds with the feature `heavy`.
/// `heavy_body`: the body of `reassemble`'s closure, `frames::reassemble(black_box(200))` unless replaced.
fn frames(factor: u32, required: bool, heavy_body: Option<&str>) -> Vec<(&'static str, String)> {
    let required = match required {
        true => "required-features = [\"heavy\"]\n",
        false => "",
    };
    let manifest = format!(
        r#"[package]
name = "frames"
version = "0.1.0"
edition = "2021"

[features]
heavy = []

[dev-dependencies]
criterion = {{ version = "0.8", default-features = false, features = ["cargo_bench_support"] }}

[[bench]]
name = "light"
harness = false

[[bench]]
name = "heavy"
harness = false
{required}
[profile.bench]
opt-level = 0
"#
    );
    let lib = format!(
        "pub fn spin(n: u64) -> u64 {{\n    (0..n).fold(0u64, |a, i| a.wrapping_mul(31).wrapping_add(i ^ (a >> 3)))\n}}\n\n\
         pub fn reassemble(n: u64) -> u64 {{\n    spin(n * {factor})\n}}\n"
    );
    let bench = |name: &str, body: &str| {
        format!(
            r#"use criterion::{{criterion_group, criterion_main, Criterion}};
use std::hint::black_box;

fn bench(c: &mut Criterion) {{
    c.bench_function("{name}", |b| b.iter(|| {body}));
}}

criterion_group!(benches, bench);
criterion_main!(benches);
"#
        )
    };
    vec![
        ("Cargo.toml", manifest),
        ("src/lib.rs", lib),
        (
            "benches/light.rs",
            bench("split", "frames::spin(black_box(200))"),
        ),
        (
            "benches/heavy.rs",
            bench(
                "reassemble",
                heavy_body.unwrap_or("frames::reassemble(black_box(200))"),
            ),
        ),
        (".gitignore", "target\n".to_string()),
    ]
}

fn write_frames(dir: &std::path::Path, files: &[(&'static str, String)]) {
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, c)| (*p, c.as_str())).collect();
    write(dir, &borrowed);
    if !dir.join("Cargo.lock").exists() {
        generate_lockfile(dir);
    }
}

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "JSON report: {e}\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            stderr(out)
        )
    })
}

/// The JSON report's benchmark names with their verdicts.
fn verdicts(report: &serde_json::Value) -> Vec<(String, String)> {
    report["benchmarks"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|b| {
                    (
                        b["name"].as_str().unwrap_or_default().to_string(),
                        b["verdict"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_target_that_needs_a_feature_is_not_built_and_with_the_feature_its_slowdown_is_found() {
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_frames(dir, &frames(1, true, None));
    commit(dir, "base");
    write_frames(dir, &frames(4, true, None));
    commit(dir, "reassemble four times slower");
    let target = shared_target();

    // cargo skips `heavy` without the feature: the comparison runs and `reassemble` is not in it.
    let out = speedup(dir, &target, &RUN);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let report = json(&out);
    assert!(
        !verdicts(&report).iter().any(|(n, _)| n == "reassemble"),
        "{report}"
    );
    // Where the report lists what it did not compare (`not_compared`), `heavy` is there with its feature.
    if let Some(not_compared) = report.get("not_compared") {
        let text = not_compared.to_string();
        assert!(text.contains("\"heavy\""), "{report}");
    }
    // A comparison that measured something (`light` run though identical) is cached with what it left
    // out: the same comparison again reuses the runs, nothing built or run, and still lists `heavy`.
    let mut measured = RUN.to_vec();
    measured.push("--run-identical");
    let first = speedup(dir, &target, &measured);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let first = json(&first);
    let again = speedup(dir, &target, &measured);
    let text = stderr(&again);
    assert_eq!(again.status.code(), Some(0), "{text}");
    assert!(
        text.contains("reused the runs of an earlier comparison ("),
        "{text}"
    );
    assert!(
        !text.contains("building ") && !text.contains("run 1 of"),
        "{text}"
    );
    let reused = json(&again);
    assert_eq!(
        reused.get("not_compared"),
        first.get("not_compared"),
        "{reused}"
    );
    if let Some(not_compared) = reused.get("not_compared") {
        assert!(not_compared.to_string().contains("\"heavy\""), "{reused}");
    }

    // With the feature, or all of them, it is built and its slowdown found: the strict gate fails. With
    // all of them, in two layouts: the relinking builds with the same features.
    for features in [&["--features", "heavy"][..], &["--all-features"]] {
        let mut args = RUN.to_vec();
        if features == ["--all-features"] {
            assert_eq!(args[14..], ["--layouts", "fixed"]);
            args[15] = "2";
        }
        args.extend(features);
        let out = speedup(dir, &target, &args);
        let text = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{features:?}: {text}");
        let report = json(&out);
        assert!(
            verdicts(&report).contains(&("reassemble".to_string(), "slower".to_string())),
            "{features:?}: {report}"
        );
    }

    // Both at once, as cargo refuses them: a usage error before anything is built.
    let mut args = RUN.to_vec();
    args.extend(["--features", "heavy", "--all-features"]);
    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("--all-features"), "{text}");
}

#[test]
fn a_target_that_fails_at_head_only_is_left_out_and_the_rest_compared() {
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_frames(dir, &frames(1, false, None));
    commit(dir, "base");
    // `split` four times slower at every commit after: it is compared, not set aside as identical.
    let slower_split = |files: Vec<(&'static str, String)>| -> Vec<(&'static str, String)> {
        files
            .into_iter()
            .map(|(p, c)| match p {
                "benches/light.rs" => (p, c.replace("black_box(200)", "black_box(800)")),
                _ => (p, c),
            })
            .collect()
    };
    write_frames(
        dir,
        &slower_split(frames(1, false, Some("panic!(\"reassemble broke\")"))),
    );
    commit(dir, "reassemble panics, split slower");
    write_frames(
        dir,
        &slower_split(frames(1, false, Some("frames::no_such_function()"))),
    );
    commit(dir, "reassemble does not build, split slower");
    write(dir, &[("README.md", "frames\n")]);
    commit(dir, "readme");
    let target = shared_target();

    // HEAD~3..HEAD~2: `reassemble` panics at HEAD; `split` is compared, and found slower.
    let mut args = RUN.to_vec();
    args[0] = "HEAD~3..HEAD~2";
    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("warning: the benchmark `heavy` of HEAD")
            && text.contains("failed (exit code 101): it is left out, the others are compared"),
        "{text}"
    );
    let report = json(&out);
    assert_eq!(
        verdicts(&report),
        [("split".to_string(), "slower".to_string())],
        "{report}"
    );
    // BASE ran `reassemble` in fewer runs than planned, but it is not compared: no note says it is.
    let all = format!("{report}{text}");
    assert!(!all.contains("`reassemble` ran in"), "{all}");

    // HEAD~3..HEAD~1: `heavy` does not build at HEAD; `split` is compared, and found slower.
    args[0] = "HEAD~3..HEAD~1";
    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let report = json(&out);
    assert_eq!(
        verdicts(&report),
        [("split".to_string(), "slower".to_string())],
        "{report}"
    );

    // A target that does not build at either side is still an error: HEAD~1..HEAD changed the README only.
    args[0] = "HEAD~1..HEAD";
    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("no_such_function"), "{text}");

    // Back to the first commit's code, but `reassemble` panics: `light` builds identical executables and
    // is set aside, `heavy` is the only target run and fails at HEAD. HEAD has no benchmark left, which is
    // not a usage error but a finding: the default gate fails on what BASE measured and HEAD could not.
    write_frames(dir, &frames(1, false, Some("panic!(\"reassemble broke\")")));
    commit(dir, "reassemble panics alone");
    args[0] = "HEAD~4..HEAD";
    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            "Gate failed (--fail-on any, threshold 2%): bench target heavy failed 1 of 1 run"
        ),
        "{text}"
    );
    assert!(text.contains("identical executables of `light`"), "{text}");
    assert!(
        text.contains("warning: the benchmark `heavy` of HEAD")
            && text.contains("failed (exit code 101)"),
        "{text}"
    );
    let report = json(&out);
    assert_eq!(
        report["identical_executables"],
        serde_json::json!(["split"]),
        "{report}"
    );
    assert_eq!(verdicts(&report), [], "{report}");
}
