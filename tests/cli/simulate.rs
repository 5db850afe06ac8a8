//! CLI tests of `simulate`: its table and JSON on a few simulated benchmarks, and bad options refused.

use crate::support::run;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_small_simulation_prints_every_plan_for_every_setting() {
    let out = run(&["simulate", "--benchmarks", "40", "--change", "0,5"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for line in [
        "True change +0 % (unchanged code)",
        "True change +5 % (HEAD slower)",
        "wrong faster",
        "wrong unchanged",
        "saving vs fixed 10",
        "A mix of the settings in equal shares",
    ] {
        assert!(stdout.contains(line), "{line}: {stdout}");
    }
    for plan in [
        "sequential 6/12/24",
        "fixed 10",
        "fixed 20",
        "paper 002, ε 0.5 %",
        "paper 002, ε 2 %",
    ] {
        // Once in the legend, once per setting, once in the mix.
        let rows = stdout
            .lines()
            .filter(|l| l.trim_start().starts_with(plan))
            .count();
        assert_eq!(rows, 4, "{plan}: {stdout}");
    }
}

#[test]
fn the_json_holds_counts_per_plan_and_setting() {
    let out = run(&[
        "simulate",
        "--benchmarks",
        "30",
        "--change=-3,0",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["schema"], "cargo-speedup-simulation/1");
    let settings = json["settings"].as_array().expect("settings");
    assert_eq!(settings.len(), 2);
    assert_eq!(settings[0]["change_pct"], -3.0);
    for setting in settings {
        let plans = setting["plans"].as_array().expect("plans");
        assert_eq!(plans.len(), 5);
        for p in plans {
            let count = |k: &str| p[k].as_u64().expect(k);
            assert_eq!(
                count("wrong_faster")
                    + count("wrong_slower")
                    + count("wrong_unchanged")
                    + count("correct")
                    + count("inconclusive"),
                30,
                "{p}"
            );
        }
    }
    assert_eq!(json["mix"][1]["mean_runs"], 10.0);
}

#[test]
fn recorded_runs_can_be_resampled() {
    let out = run(&[
        "simulate",
        "--benchmarks",
        "20",
        "--change",
        "0",
        "--record",
        "fixtures/example/base.json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("resampled with replacement"));
}

#[test]
fn bad_options_are_refused_naming_the_flag() {
    for (args, flag) in [
        (&["--benchmarks", "0"][..], "--benchmarks"),
        (&["--equivalence", "0"], "--equivalence"),
        (&["--confidence", "1"], "--confidence"),
        (&["--change=-100"], "--change"),
        (&["--process=-1"], "--process"),
    ] {
        let mut all = vec!["simulate"];
        all.extend_from_slice(args);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("invalid value") && text(&out.stderr).contains(flag),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty());
    }
    let out = run(&[
        "simulate",
        "--record",
        "no-such-file.json",
        "--benchmarks",
        "5",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--record"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn seventeen_versions_race_against_constant_plans_and_the_paper() {
    let out = run(&["simulate", "--versions", "17", "--benchmarks", "50"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for line in [
        "Simulated: 50 problems of 17 versions",
        "failures",
        "runs/version",
        "best eliminated",
    ] {
        assert!(stdout.contains(line), "{line}: {stdout}");
    }
    for plan in [
        "race 7/14/28",
        "constant 5",
        "constant 160",
        "paper 002, ε 0.5 %",
    ] {
        // Once in the legend, once in the table.
        let rows = stdout
            .lines()
            .filter(|l| l.trim_start().starts_with(plan))
            .count();
        assert_eq!(rows, 2, "{plan}: {stdout}");
    }
    let out = run(&[
        "simulate",
        "--versions",
        "17",
        "--benchmarks",
        "20",
        "--max-runs",
        "56",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["schema"], "cargo-speedup-simulation-versions/1");
    assert_eq!(json["versions"], 17);
    let plans = json["plans"].as_array().expect("plans");
    assert_eq!(plans[0]["name"], "race 7/14/28/56");
    assert_eq!(plans[0]["max_runs"], 56);
    for p in plans {
        assert_eq!(p["problems"], 20, "{p}");
        assert!(p["failures"].as_u64().expect("failures") <= 20, "{p}");
        assert!(p["runs_per_version"].as_f64().expect("runs") > 0.0, "{p}");
    }
}

#[test]
fn one_version_or_a_cap_below_the_first_look_is_refused() {
    for (args, flag) in [
        (&["--versions", "1"][..], "--versions"),
        (&["--versions", "17", "--theta", "0"], "--theta"),
        (&["--versions", "17", "--max-runs", "3"], "--max-runs"),
        (&["--runs", "10", "--max-runs", "5"], "--max-runs"),
    ] {
        let mut all = vec!["simulate", "--benchmarks", "5"];
        all.extend_from_slice(args);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(flag),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn bisections_are_replayed_with_their_outcomes_steps_and_runs() {
    let out = run(&[
        "simulate",
        "--bisect",
        "16",
        "--benchmarks",
        "30",
        "--change",
        "0,100",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["schema"], "cargo-speedup-bisect-simulation/1");
    assert_eq!(json["commits"], 16);
    // 1 - 0.05 / 9, and the first look at that confidence.
    let each = json["comparison_confidence"].as_f64().unwrap();
    assert!((each - 0.994_444).abs() < 1e-6, "{json}");
    let settings = json["settings"].as_array().expect("settings");
    assert_eq!(settings.len(), 2);
    for s in settings {
        let share = |k: &str| s[k].as_f64().expect(k);
        let total = share("right") + share("wrong") + share("interval") + share("nothing");
        assert!((total - 1.0).abs() < 1e-9, "{s}");
        assert_eq!(s["bisections"], 30);
    }
    // Twice as slow: named in 4 steps nearly always; no change: nothing to bisect nearly always.
    assert!(settings[1]["right"].as_f64().unwrap() >= 0.9, "{json}");
    assert_eq!(settings[1]["mean_steps"], 4.0, "{json}");
    assert!(settings[0]["nothing"].as_f64().unwrap() >= 0.9, "{json}");
    assert_eq!(settings[0]["right"], 0.0, "{json}");

    let table = run(&[
        "simulate",
        "--bisect",
        "8",
        "--benchmarks",
        "5",
        "--change",
        "5",
    ]);
    assert_eq!(table.status.code(), Some(0), "{}", text(&table.stderr));
    let stdout = text(&table.stdout);
    assert!(
        stdout.starts_with(
            "Simulated bisections of 8 commits, one slowdown at a commit drawn uniformly"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("5 % (seed 1)"), "{stdout}");

    for (args, expected) in [
        (
            &["--bisect", "1"][..],
            "error: invalid value 1 for --bisect: expected a number of commits on the path from 2 to \
             100000, e.g. 16\nhint: one commit needs no bisection; 16 is a pull request of a fair size\n",
        ),
        (
            &["--bisect", "16", "--change=-5"],
            "error: invalid value -5 for --change: expected percentages of 0 or more with --bisect (the \
             bisection seeks a slowdown)\nhint: 0 replays a range without change; 5 a 5 % slowdown\n",
        ),
    ] {
        let mut all = vec!["simulate"];
        all.extend_from_slice(args);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&out.stderr), expected, "{args:?}");
        assert!(out.stdout.is_empty());
    }
}
