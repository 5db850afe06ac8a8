//! The one-bisection report in each plain format and JSON: the summary, the table, Markdown, CSV and the
//! JSON object.

use super::json::json;
use super::text::{csv, markdown, table};
use super::*;
use crate::protocol::Verdict;
use crate::protocol::bisect::{Cut, Evidence, MoreSteps, Step};
use crate::report::Style;
use crate::testutil::bisection::bisection;

#[test]
fn the_summary_names_the_commit_with_its_subject_and_confidence() {
    assert_eq!(
        bisection().summary(),
        "The slowdown came with 0000000000 \"slow down\" (commit 2 of 3 after GOOD), at confidence \
         0.95."
    );
}

#[test]
fn the_json_has_its_schema_the_named_commit_and_each_step() {
    let mut out = Vec::new();
    json(&bisection(), &mut out).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(value["schema"], "cargo-speedup-bisect/1");
    assert_eq!(value["outcome"], "named");
    assert_eq!(value["named"], 2);
    assert_eq!(value["path"][1]["identical"], true);
    assert_eq!(value["path"][1]["step"], "like-good");
    assert_eq!(value["path"][2]["verdict"], "slower");
    assert_eq!(value["path"][2]["speedup"], 0.5);
    assert_eq!(value["path"][0]["measured"], false);
}

#[test]
fn the_table_lists_every_commit_with_its_step_and_an_interval_says_why() {
    let mut b = bisection();
    b.ending = Ending::Interval {
        good: 1,
        bad: 3,
        cut: Cut::Undecided(2),
    };
    b.path[2].measured.as_mut().unwrap().step = Some(Step::Undecided);
    let mut out = Vec::new();
    table(&b, Style::plain(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "The slowdown came with one of the 2 commits after 0000000000 up to 0000000000 (commits 2 to \
         3 of 3): the step at 0000000000 stayed undecided after the most runs (--max-runs)."
    );
    assert!(lines[3].starts_with("   0  0000000000  GOOD"), "{text}");
    assert!(
        lines[4].contains("like-good (identical executables)"),
        "{text}"
    );
    assert!(lines[5].contains("0.50x  slower"), "{text}");
    assert!(lines[5].contains("undecided"), "{text}");
    assert!(lines[6].starts_with("   3  0000000000  BAD"), "{text}");
}

#[test]
fn the_named_commit_is_reported_against_its_parent_beside_against_good() {
    let mut b = bisection();
    b.path[2].measured.as_mut().unwrap().interval = Some((0.45, 0.55));
    b.named_change = Some(NamedChange {
        parent: 1,
        speedup: Some(0.52),
        interval: Some((0.5, 0.54)),
        verdict: Verdict::Slower,
        identical: false,
    });
    assert_eq!(
        b.named_change_line().unwrap(),
        "Against its parent 0000000000 (commit 1): 0.52x [0.50, 0.54], slower; against GOOD: 0.50x \
         [0.45, 0.55]."
    );
    let mut out = Vec::new();
    table(&b, Style::plain(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text.lines().nth(1),
        Some(
            "Against its parent 0000000000 (commit 1): 0.52x [0.50, 0.54], slower; against GOOD: \
             0.50x [0.45, 0.55]."
        ),
        "{text}"
    );
    let mut out = Vec::new();
    json(&b, &mut out).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(value["named_change"]["parent"], 1);
    assert_eq!(value["named_change"]["speedup"], 0.52);
    assert_eq!(value["named_change"]["interval"][1], 0.54);
    assert_eq!(value["named_change"]["verdict"], "slower");
    assert_eq!(value["path"][2]["interval"][0], 0.45);
    let mut out = Vec::new();
    csv(&b, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert!(rows[0].ends_with(",verdict_vs_parent"), "{text}");
    assert!(rows[3].ends_with(",0.52,0.5,0.54,slower"), "{text}");
    assert!(rows[2].ends_with(",,,,"), "{text}");
    // Not named: no line.
    b.ending = Ending::NothingToBisect;
    assert_eq!(b.named_change_line(), None);
}

#[test]
fn the_summary_says_when_the_measured_commits_show_more_than_one_step() {
    let mut b = bisection();
    b.path[3].measured.as_mut().unwrap().speedup = Some(0.7);
    b.path[3].measured.as_mut().unwrap().interval = Some((0.68, 0.72));
    b.path[2].measured.as_mut().unwrap().interval = Some((0.48, 0.52));
    b.more_steps = Some(MoreSteps {
        earlier: 2,
        later: 3,
        evidence: Evidence::Levels,
    });
    assert_eq!(
        b.summary(),
        "The slowdown came with 0000000000 \"slow down\" (commit 2 of 3 after GOOD), at confidence \
         0.95. The measured commits show more than one step: commit 2 \
         (0000000000) is 0.50x [0.48, 0.52] against GOOD, slower and BAD (0000000000) 0.70x [0.68, \
         0.72] against GOOD, slower; the commit named is the first step the search found, not the \
         whole change."
    );
    let mut out = Vec::new();
    json(&b, &mut out).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(value["more_steps"]["earlier"], 2);
    assert_eq!(value["more_steps"]["later"], 3);
    assert_eq!(value["more_steps"]["evidence"], "levels");
    b.more_steps = Some(MoreSteps {
        earlier: 1,
        later: 3,
        evidence: Evidence::Back,
    });
    b.ending = Ending::Interval {
        good: 1,
        bad: 3,
        cut: Cut::Undecided(2),
    };
    assert!(
        b.summary().ends_with(
            ": the step at 0000000000 stayed undecided after the most runs (--max-runs). The measured commits show more than one \
             step: BAD is shown faster than commit 1 (0000000000); no one commit explains the whole \
             change."
        ),
        "{}",
        b.summary()
    );
}

#[test]
fn markdown_keeps_subjects_inert() {
    let mut out = Vec::new();
    markdown(&bisection(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(!text.contains("<b>"), "{text}");
    assert!(
        text.contains("| 2 | `0000000000` |  | 0.50x | slower |"),
        "{text}"
    );
}
