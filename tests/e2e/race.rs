//! The default plan races: a benchmark made five times slower is decided at the first look and stops
//! running, while the others may run on; the report says how many looks the plan could take.

use crate::support::*;

#[test]
fn a_clearly_slower_benchmark_stops_at_the_first_look() {
    let _serial = serial();
    let repo = slowed_repository();
    let dir = repo.path();
    let target = shared_target();
    let before = repository_state(dir);
    // RUN's settings without its fixed plan: looks after 5, 10 and 20 runs per side.
    let mut args: Vec<&str> = [&RUN[..13], &RUN[14..]].concat();
    args[8] = "5";
    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("looks after 5, 10, 20 runs"), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["looks"], 3, "{report}");
    let changed = report["benchmarks"]
        .as_array()
        .and_then(|all| all.iter().find(|b| b["name"] == "changed"))
        .expect("changed is reported");
    assert_eq!(changed["verdict"], "slower", "{changed}");
    // 5 v 5 runs five times apart: p = 1/252 < 0.05/3 at the first look, which stops it.
    assert_eq!(changed["base"]["runs"], 5, "{changed}");
    assert_eq!(changed["head"]["runs"], 5, "{changed}");
    assert!(
        !text.contains("ran in"),
        "a stopped benchmark is not missing: {text}"
    );
    assert_eq!(repository_state(dir), before);
}
