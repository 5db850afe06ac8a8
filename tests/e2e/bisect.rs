//! `cargo speedup bisect` on generated histories.
//!
//! - Sixteen commits after GOOD, one of which makes `changed` twice as slow, one that does not build (and
//!   the next that repairs it), the others touching only docs (identical executables, nothing run). The
//!   bisection names the slow commit with its subject and its change against its parent, skips the broken
//!   commit, runs only the comparisons that can differ, and a second bisection re-measures nothing; a range
//!   of docs commits alone has nothing to bisect.
//! - A 10 % slowdown and a later commit that changes unrelated code, on a bench target that is a plain
//!   `main` standing in for criterion ([`stand_in`]): it writes criterion's sample files with seeded values,
//!   so that the whole pipeline runs on a known 10 % change without depending on live timing (house rule:
//!   no live difference under 2x). The same stand-in shows a range with no change stopping at the initial
//!   check, and `--each` bisecting two benchmarks changed at different commits, sharing the measured
//!   commits.

use crate::support::*;

/// After [`RUN`]'s short criterion settings: a fixed plan of 12 runs per side (each comparison is made at
/// confidence 1 - 0.05 / 9, where 6 runs need every run of one side faster than every run of the other),
/// on the one benchmark that changes; the executables as built (no relinked layouts: this test is about the
/// search, not layouts, and linking 12 layouts per side per comparison was most of its time).
const PLAN: [&str; 9] = [
    "--runs",
    "12",
    "--fixed",
    "--filter",
    "changed",
    "--format",
    "json",
    "--layouts",
    "fixed",
];

/// `bisect REVISIONS...` with the short settings and [`PLAN`].
fn bisect_args<'a>(revisions: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["bisect"];
    args.extend_from_slice(revisions);
    args.extend_from_slice(&RUN[1..7]);
    args.extend_from_slice(&PLAN);
    args
}

#[test]
fn bisect_names_the_commit_that_made_a_benchmark_twice_as_slow() {
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 20_000);
    commit(dir, "fast");
    // The search looks at 8 (docs), 12 (broken: skipped), 11 (docs), 13 (repaired: GOOD's executables),
    // then 14, the slow commit, which it names; 14 is then compared with its parent 13.
    for n in 1..=16 {
        if n == 14 {
            write_criterion_crate(dir, 40_000);
            commit(dir, "twice as slow");
        } else if n == 12 {
            write(
                dir,
                &[(
                    "src/lib.rs",
                    "pub fn spin(n: u64) -> u64 { does not build }\n",
                )],
            );
            commit(dir, "broken");
        } else if n == 13 {
            write_criterion_crate(dir, 20_000);
            commit(dir, "repaired");
        } else {
            write(dir, &[("README.md", &format!("docs {n}\n"))]);
            commit(dir, &format!("docs {n}"));
        }
    }
    let slow = git(dir, &["rev-parse", "HEAD~2"]).trim().to_string();
    let target = shared_target();
    let before = repository_state(dir);
    // With a budget that no comparison reaches: its runs are cached as if there were none.
    let mut args = bisect_args(&["HEAD~16..HEAD"]);
    args.extend(["--budget", "60m"]);

    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["schema"], "cargo-speedup-bisect/1", "{report}");
    assert_eq!(report["outcome"], "named", "{report}");
    assert_eq!(report["named"], 14, "{report}");
    let named = &report["path"][14];
    assert_eq!(named["sha"], slow.as_str(), "{report}");
    assert_eq!(named["subject"], "twice as slow", "{report}");
    assert_eq!(named["verdict"], "slower", "{report}");
    // Its own change, against its parent, beside its change against GOOD.
    assert_eq!(report["named_change"]["parent"], 13, "{report}");
    assert_eq!(report["named_change"]["verdict"], "slower", "{report}");
    let own = report["named_change"]["speedup"]
        .as_f64()
        .unwrap_or_default();
    // Twice as slow reads 0.5x; noise is left a factor of 2.5 down, and "slower" above is the verdict.
    assert!((0.2..0.95).contains(&own), "{report}");
    assert_eq!(report["more_steps"], serde_json::Value::Null, "{report}");
    // The commit that does not build is skipped, as `git bisect skip` does, saying why.
    assert_eq!(report["path"][12]["step"], "skipped", "{report}");
    let why = report["path"][12]["skipped"].as_str().unwrap_or_default();
    assert!(why.starts_with("building "), "{report}");
    // The steps at the commits before it that build GOOD's executables ran nothing.
    for docs in [8, 11, 13] {
        assert_eq!(report["path"][docs]["identical"], true, "{report}");
        assert_eq!(report["path"][docs]["step"], "like-good", "{report}");
    }
    for unvisited in [1, 4, 15] {
        assert_eq!(report["path"][unvisited]["measured"], false, "{report}");
    }
    // 16 commits: 2 * 4 + 1 comparisons budgeted, each at 1 - 0.05 / 9; the check and 4 steps made.
    assert_eq!(report["budgeted_comparisons"], 9, "{report}");
    assert_eq!(report["comparisons"], 5, "{report}");
    assert_eq!(report["confidence"], 0.95, "{report}");
    assert_eq!(repository_state(dir), before);

    // Every measured pair is cached: bisecting again, with another budget, runs nothing.
    let args_again = {
        let mut a = bisect_args(&["HEAD~16..HEAD"]);
        a.extend(["--budget", "50m"]);
        a
    };
    let again = speedup(dir, &target, &args_again);
    let text = stderr(&again);
    assert_eq!(again.status.code(), Some(0), "{text}");
    assert!(!text.contains("running "), "nothing may run again: {text}");
    let second: serde_json::Value = serde_json::from_slice(&again.stdout).expect("JSON report");
    assert_eq!(second["named"], 14, "{second}");

    // Docs commits alone: BAD is not shown slower than GOOD, nothing to bisect, nothing run, exit 0.
    let args = bisect_args(&["HEAD~8", "HEAD~5"]);
    let nothing = speedup(dir, &target, &args);
    let text = stderr(&nothing);
    assert_eq!(nothing.status.code(), Some(0), "{text}");
    assert!(!text.contains("running "), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&nothing.stdout).expect("JSON report");
    assert_eq!(report["outcome"], "nothing-to-bisect", "{report}");
    let summary = report["summary"].as_str().unwrap_or_default();
    assert!(
        summary.starts_with("Nothing to bisect: BAD (")
            && summary.contains(") is not shown slower than GOOD ("),
        "{report}"
    );
    assert_eq!(repository_state(dir), before);
}

/// A crate whose bench target `work` is a plain `main` standing in for criterion (run with `--harness
/// criterion`): it lists `benchmarks` and, for a run, writes criterion's `benchmark.json` and
/// `sample.json` under the run's `CRITERION_HOME` for each, 10 samples of one iteration at 1000 ns times
/// its level, with seeded noise: a run level within ±3 % and samples within ±1 % of it, drawn from the
/// run's directory name (`run-N`), so that BASE's run N and HEAD's have the same noise. A level 10 %
/// higher then puts every run of one side above every run of the other (1.1 × 0.96 > 1.04), at any seed:
/// the verdicts are fixed, whatever the machine does. `tag` is printed by the bench only to change its
/// executable (unrelated code); nothing depends on it.
fn stand_in(dir: &std::path::Path, benchmarks: &[(&str, f64)], tag: &str) {
    let manifest = "[package]\nname = \"standin\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                    [[bench]]\nname = \"work\"\nharness = false\n\n[profile.bench]\nopt-level = 0\n";
    let list: Vec<String> = benchmarks
        .iter()
        .map(|(name, level)| format!("(\"{name}\", {level:?})"))
        .collect();
    let bench = format!(
        r#"const BENCHMARKS: &[(&str, f64)] = &[{list}];
const TAG: &str = "{tag}";

/// SplitMix64, uniform in [0, 1).
fn uniform(state: &mut u64) -> f64 {{
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
}}

fn main() {{
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list") {{
        for (name, _) in BENCHMARKS {{
            println!("{{name}}: benchmark");
        }}
        return;
    }}
    let home = std::path::PathBuf::from(std::env::var("CRITERION_HOME").expect("CRITERION_HOME"));
    let baseline = args
        .windows(2)
        .find(|w| w[0] == "--save-baseline")
        .map(|w| w[1].clone())
        .expect("--save-baseline");
    let run = home.file_name().and_then(|n| n.to_str()).unwrap_or("run").to_string();
    for (name, level) in BENCHMARKS {{
        let mut state = run.bytes().chain(name.bytes()).fold(0xcbf2_9ce4_8422_2325u64, |h, b| {{
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        }});
        let run_level = 1000.0 * level * (1.0 + 0.06 * (uniform(&mut state) - 0.5));
        let times: Vec<String> = (0..10)
            .map(|_| format!("{{}}", run_level * (1.0 + 0.02 * (uniform(&mut state) - 0.5))))
            .collect();
        let dir = home.join(name).join(&baseline);
        std::fs::create_dir_all(&dir).expect("the baseline directory");
        let id = format!(
            "{{{{\"group_id\":\"{{name}}\",\"function_id\":null,\"value_str\":null,\"full_id\":\"{{name}}\",\"directory_name\":\"{{name}}\",\"title\":\"{{name}}\"}}}}"
        );
        std::fs::write(dir.join("benchmark.json"), id).expect("benchmark.json");
        let sample = format!(
            "{{{{\"sampling_mode\":\"Flat\",\"iters\":[{{}}],\"times\":[{{}}]}}}}",
            vec!["1.0"; 10].join(","),
            times.join(",")
        );
        std::fs::write(dir.join("sample.json"), sample).expect("sample.json");
    }}
    if std::hint::black_box(TAG).len() > 1000 {{
        println!("{{TAG}}");
    }}
}}
"#,
        list = list.join(", ")
    );
    write(
        dir,
        &[
            ("Cargo.toml", manifest),
            ("src/lib.rs", ""),
            ("benches/work.rs", bench.as_str()),
            (".gitignore", "target\n"),
        ],
    );
}

/// `bisect REVISIONS... --harness criterion` on [`stand_in`] crates: 8 runs per side, fixed, JSON.
fn stand_in_args<'a>(revisions: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["bisect"];
    args.extend_from_slice(revisions);
    args.extend_from_slice(&[
        "--harness",
        "criterion",
        "--runs",
        "8",
        "--fixed",
        "--format",
        "json",
        "--layouts",
        "fixed",
    ]);
    args.extend_from_slice(more);
    args
}

#[test]
fn bisect_names_a_ten_percent_slowdown_followed_by_an_unrelated_change() {
    let repo = repository();
    let dir = repo.path();
    stand_in(dir, &[("parse", 1.0)], "a");
    commit(dir, "GOOD");
    write(dir, &[("README.md", "docs 1\n")]);
    commit(dir, "docs 1");
    write(dir, &[("README.md", "docs 2\n")]);
    commit(dir, "docs 2");
    stand_in(dir, &[("parse", 1.1)], "a");
    commit(dir, "ten percent slower");
    write(dir, &[("README.md", "docs 4\n")]);
    commit(dir, "docs 4");
    stand_in(dir, &[("parse", 1.1)], "b");
    commit(dir, "unrelated code");
    write(dir, &[("README.md", "docs 6\n")]);
    commit(dir, "docs 6");
    let target = dir.join("target");
    let before = repository_state(dir);

    // 6 commits: the search looks at 3 (the slowdown, like BAD), 1 (docs: GOOD's executables, nothing
    // run), 2 (docs), and names 3; 3 against its parent 2 is measured too.
    let out = speedup(dir, &target, &stand_in_args(&["HEAD~6..HEAD"], &[]));
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["outcome"], "named", "{report}");
    assert_eq!(report["named"], 3, "{report}");
    assert_eq!(
        report["path"][3]["subject"], "ten percent slower",
        "{report}"
    );
    // Every run of the slow side is 6.7 % to 14 % slower: the speedups are about 1 / 1.1.
    for speedup in [
        &report["path"][3]["speedup"],
        &report["path"][6]["speedup"],
        &report["named_change"]["speedup"],
    ] {
        let speedup = speedup.as_f64().unwrap_or_default();
        assert!((0.88..0.94).contains(&speedup), "{report}");
    }
    assert_eq!(report["named_change"]["parent"], 2, "{report}");
    assert_eq!(report["named_change"]["verdict"], "slower", "{report}");
    for docs in [1, 2] {
        assert_eq!(report["path"][docs]["identical"], true, "{report}");
        assert_eq!(report["path"][docs]["step"], "like-good", "{report}");
    }
    assert_eq!(report["more_steps"], serde_json::Value::Null, "{report}");
    assert_eq!(repository_state(dir), before);

    // No change from GOOD to BAD (different executables, the same level): the initial check stops it.
    let report = json_report(dir, &target, &stand_in_args(&["HEAD~3..HEAD"], &[]), 0);
    assert_eq!(report["outcome"], "nothing-to-bisect", "{report}");
    assert_eq!(report["comparisons"], 1, "{report}");
    assert_eq!(report["path"][3]["identical"], false, "{report}");
    assert_ne!(report["path"][3]["verdict"], "slower", "{report}");
    assert!(
        report["summary"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Nothing to bisect: BAD ("),
        "{report}"
    );
}

#[test]
fn bisect_each_bisects_each_changed_benchmark_sharing_the_measured_commits() {
    let repo = repository();
    let dir = repo.path();
    // `parse` is 10 % slower from commit 1, `print` from commit 2; `steady` never changes.
    let levels = |parse: f64, print: f64| [("parse", parse), ("print", print), ("steady", 1.0)];
    stand_in(dir, &levels(1.0, 1.0), "a");
    commit(dir, "GOOD");
    stand_in(dir, &levels(1.1, 1.0), "a");
    commit(dir, "parse slower");
    stand_in(dir, &levels(1.1, 1.1), "a");
    commit(dir, "print slower");
    write(dir, &[("README.md", "docs\n")]);
    commit(dir, "docs");
    let target = dir.join("target");

    let out = speedup(dir, &target, &stand_in_args(&["HEAD~3..HEAD"], &["--each"]));
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["schema"], "cargo-speedup-bisect/1", "{report}");
    assert_eq!(report["each"], true, "{report}");
    assert_eq!(report["compared"], 3, "{report}");
    let each = report["benchmarks"].as_array().expect("benchmarks");
    let named: Vec<(&str, &serde_json::Value)> = each
        .iter()
        .map(|b| (b["benchmark"].as_str().unwrap_or_default(), &b["named"]))
        .collect();
    assert_eq!(
        named,
        [("parse", &1.into()), ("print", &2.into())],
        "{report}"
    );
    // Both searches start at commit 1: `print`'s reads `parse`'s comparison with GOOD again, as `parse`'s
    // comparison of commit 1 with its parent GOOD does. No pair of commits is built and run twice.
    let built: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("building "))
        .collect();
    let mut pairs: Vec<Vec<&str>> = built
        .chunks(2)
        .map(|pair| {
            let mut pair: Vec<&str> = pair.iter().map(|side| &side[5..]).collect();
            pair.sort();
            pair
        })
        .collect();
    let measured = pairs.len();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), measured, "{text}");
    assert!(
        text.contains("bisect `print`: step 1: commit 1 of 3"),
        "{text}"
    );
    // The check, commit 1 against GOOD, then for `print` at most BAD against 1, 2 against GOOD and 2
    // against its parent 1.
    assert!((3..=5).contains(&measured), "{text}");
}
