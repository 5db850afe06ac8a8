//! CLI tests of `--paired`: inputs without blocks are decided by the independent design and the report says
//! so once; `race` and `bisect` refuse it before anything runs (`docs/replication.md` §7).

use serde_json::Value;

use crate::support::run;

#[test]
fn compare_of_files_without_blocks_says_once_that_nothing_could_be_paired() {
    let args = |extra: &[&'static str]| {
        let mut args = vec![
            "compare",
            "fixtures/example/base.json",
            "fixtures/example/head.json",
        ];
        args.extend_from_slice(extra);
        args
    };
    let paired = run(&args(&["--paired", "--format", "json"]));
    let plain = run(&args(&["--format", "json"]));
    assert_eq!(paired.status.code(), plain.status.code());
    let json: Value = serde_json::from_slice(&paired.stdout).expect("JSON");
    let benchmarks = json["benchmarks"].as_array().expect("benchmarks");
    assert!(
        benchmarks
            .iter()
            .all(|b| b["design"]["design"] == "independent"
                && b["design"]["unpaired_reason"] == "no-blocks")
    );
    let said: Vec<&Value> = json["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter(|w| {
            w["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("--paired:"))
        })
        .collect();
    assert_eq!(said.len(), 1, "{said:?}");
    let message = said[0]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!(
            "{} of {} benchmarks",
            benchmarks.len(),
            benchmarks.len()
        )),
        "{message}"
    );
    // The verdicts are those of the independent design.
    let plain: Value = serde_json::from_slice(&plain.stdout).expect("JSON");
    for (p, i) in benchmarks
        .iter()
        .zip(plain["benchmarks"].as_array().unwrap())
    {
        assert_eq!(p["verdict"], i["verdict"], "{}", p["name"]);
    }
}

#[test]
fn race_and_bisect_refuse_paired_before_anything_runs() {
    for args in [
        &["race", "a", "b", "--paired"][..],
        &["bisect", "a..b", "--paired"][..],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("--paired"), "{stderr}");
        assert!(stderr.contains("hint:"), "{stderr}");
    }
}
