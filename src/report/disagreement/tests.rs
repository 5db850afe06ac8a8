use super::*;
use crate::model::{Results, Suite};
use crate::protocol::{FailOn, Options, Verdict, analyse};
use crate::report::{Format, Style, renderer};
use crate::testutil::time_and_count::benchmarks;

/// BASE against HEAD: a benchmark named `name` slept (time 3x, count +0.4 %), and `hidden` (count +10 %,
/// time the same), at `--threshold 2`.
fn analysis(name: &str) -> crate::protocol::Analysis {
    crate::testutil::time_and_count::analysis(&[
        (name, 100_000.0, 300_000.0, 100_000.0, 100_400.0),
        ("hidden", 50_000.0, 50_000.0, 1_000.0, 1_100.0),
    ])
}

fn rendered(analysis: &crate::protocol::Analysis, format: Format) -> String {
    let mut out = Vec::new();
    renderer(format)
        .render(analysis, Style::plain(), &mut out)
        .unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn each_disagreement_is_one_line_with_both_figures_and_the_reading() {
    let a = analysis("slept");
    let found = of(&a);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(
        line(&found[0], "slept"),
        "slept: time slower (+200%) with instructions unchanged (+0.400 %, within --threshold): the \
         change is not in the instructions executed: likely memory, I/O or scheduling (a sleep, a lock, \
         cache misses)"
    );
    assert_eq!(
        line(&found[1], "hidden"),
        "hidden: instructions +10.0 % with time unchanged (0%): the instructions that changed cost no \
         time the runs could see: likely hidden behind memory stalls or the CPU's parallel execution"
    );
    // Equal counts are said so; a faster time and a fewer count have their sign.
    let equal = Disagreement {
        count_change_pct: 0.0,
        time: Verdict::Faster,
        time_change_pct: -45.5,
        ..found[0].clone()
    };
    assert!(
        line(&equal, "x").starts_with("x: time faster (−46%) with instructions equal: "),
        "{}",
        line(&equal, "x")
    );
    // Opposite ways: itoa 7b4c86b's u128[max], 278 → 270 instructions with the time slower.
    let opposite = Disagreement {
        kind: DisagreementKind::Opposite,
        time: Verdict::Slower,
        time_change_pct: 3.3,
        count_change_pct: -2.877_697_841_726_619,
        ..found[0].clone()
    };
    assert_eq!(
        line(&opposite, "u128[max]/itoa"),
        "u128[max]/itoa: time slower (+3.3%) with instructions -2.88 %: what changed is how the \
         instructions run, not how many: likely memory or cache behaviour, branch prediction or code \
         alignment"
    );
}

#[test]
fn every_report_says_where_time_and_instructions_disagree() {
    let a = analysis("slept");
    let json: serde_json::Value = serde_json::from_str(&rendered(&a, Format::Json)).unwrap();
    let slept = json["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "slept")
        .unwrap();
    let d = &slept["disagreement"];
    assert_eq!(d["kind"], "time-not-count", "{d}");
    assert_eq!(d["count"], "slept (instructions)");
    assert_eq!(d["time_verdict"], "slower");
    assert!(
        (d["time_change_pct"].as_f64().unwrap() - 200.0).abs() < 1e-9,
        "{d}"
    );
    assert!(
        (d["count_change_pct"].as_f64().unwrap() - 0.4).abs() < 1e-9,
        "{d}"
    );
    assert!(
        d["reading"]
            .as_str()
            .unwrap()
            .contains("memory, I/O or scheduling")
    );
    // Only on the time: the count's own entry has none.
    let count = json["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "slept (instructions)")
        .unwrap();
    assert!(count.get("disagreement").is_none(), "{count}");
    let markdown = rendered(&a, Format::Markdown);
    assert!(
        markdown.contains("**Where time and instructions disagree:**\n\n- **slept**: time slower"),
        "{markdown}"
    );
    let html = rendered(&a, Format::Html);
    assert!(
        html.contains(r#"<section id="disagree"><h2>Where time and instructions disagree</h2><ul><li><code>slept</code>: time slower (+200%)"#),
        "the HTML section"
    );
    let table = rendered(&a, Format::Table);
    assert!(
        table.contains("Where time and instructions disagree:\n  slept: time slower (+200%)"),
        "{table}"
    );
    assert!(
        table.contains("  hidden: instructions +10.0 % with time unchanged"),
        "{table}"
    );
}

#[test]
fn a_hostile_name_is_inert_in_every_sink() {
    let name = "a|b <img src=x> *c*\u{1b}[31mred\u{202e}";
    let a = analysis(name);
    assert_eq!(of(&a)[0].benchmark, name);
    let table = rendered(&a, Format::Table);
    assert!(
        !table.contains('\u{1b}') && !table.contains('\u{202e}'),
        "{table:?}"
    );
    let markdown = rendered(&a, Format::Markdown);
    let item = markdown
        .lines()
        .find(|l| l.starts_with("- **") && l.contains("time slower"))
        .unwrap();
    assert!(
        !item.contains("<img") && !item.contains("a|b") && !item.contains('\u{1b}'),
        "{item}"
    );
    let html = rendered(&a, Format::Html);
    let section = &html[html.find(r#"<section id="disagree">"#).unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(
        !section.contains("<img") && !section.contains('\u{1b}'),
        "{section}"
    );
}

#[test]
fn a_report_without_both_measures_says_nothing_of_it() {
    let only_counts = |n: f64| Results {
        origin: "here".to_string(),
        benchmarks: benchmarks("x", 1.0, n).split_off(1),
        environment: Default::default(),
        notes: vec![],
        left_out: vec![],
    };
    let a = analyse(
        &Suite::pair(only_counts(1_000.0), only_counts(1_000.0)),
        &Options::defaults(FailOn::Any),
    );
    assert!(of(&a).is_empty());
    for format in [Format::Table, Format::Markdown, Format::Html, Format::Json] {
        let text = rendered(&a, format);
        assert!(!text.contains("disagree"), "{format:?}: {text}");
    }
}
