//! The figures of `cargo speedup simulate --bisect N` -> text: per setting (true slowdown), the share of
//! bisections that named the right commit, a wrong one, stopped with an interval, or stopped at the initial
//! check, with the mean steps, comparisons and runs per side. JSON through wire structs carrying
//! `"schema": "cargo-speedup-bisect-simulation/1"` (`docs/usage.md` §10).
//!
//! It only presents what the tallies hold; no figure is computed here beyond a share of counts.

use serde::Serialize;

use super::simulation::{rate, table_with};
use crate::simulation::bisections::BisectTally;

/// The JSON schema of the bisection simulation's output.
pub const SCHEMA: &str = "cargo-speedup-bisect-simulation/1";

/// Everything one simulation of bisections found.
#[derive(Debug, Clone)]
pub struct SimulatedBisections {
    /// Where the runs came from, in words.
    pub source: String,
    /// The confidence stated for a commit named.
    pub confidence: f64,
    /// The confidence each comparison was made at.
    pub comparison_confidence: f64,
    /// Commits on the path after GOOD.
    pub commits: usize,
    /// The looks of each comparison, runs per side.
    pub looks: Vec<u32>,
    /// One per `--change`: the slowdown in percent, the seed, and the tally.
    pub settings: Vec<(f64, u64, BisectTally)>,
}

const HEADER: [&str; 9] = [
    "slowdown",
    "bisections",
    "right",
    "wrong",
    "interval",
    "nothing",
    "steps",
    "comparisons",
    "runs/side",
];

/// The terminal text.
pub fn table(s: &SimulatedBisections) -> String {
    let looks: Vec<String> = s.looks.iter().map(u32::to_string).collect();
    let mut out = format!(
        "Simulated bisections of {} commits, one slowdown at a commit drawn uniformly, from {}; confidence \
         {} for the commit named, each comparison at {:.4} with looks after {} runs per side.\n\n",
        s.commits,
        s.source,
        s.confidence,
        s.comparison_confidence,
        looks.join(", ")
    );
    let rows = s
        .settings
        .iter()
        .map(|(change, seed, t)| {
            vec![
                format!("{change} % (seed {seed})"),
                t.replays.to_string(),
                rate(t.rate(t.right)),
                rate(t.rate(t.wrong)),
                rate(t.rate(t.interval)),
                rate(t.rate(t.nothing)),
                format!("{:.2}", t.mean(t.steps)),
                format!("{:.2}", t.mean(t.comparisons)),
                format!("{:.1}", t.mean(t.runs)),
            ]
        })
        .collect();
    out.push_str(&table_with(&HEADER, rows));
    out.push_str(
        "\n\nRight: the commit that made the change named; wrong: another commit named (every commit named \
         at a 0 % slowdown); interval: stopped with commits left (an undecided step); nothing: stopped at \
         the initial check, GOOD against BAD not shown slower. Steps: midpoints measured; comparisons: the \
         initial check included; runs/side: summed over a bisection's comparisons. Every step runs (no \
         identical executables, no skipped commit).\n",
    );
    out
}

#[derive(Serialize)]
struct Wire<'a> {
    schema: &'static str,
    source: &'a str,
    confidence: f64,
    comparison_confidence: f64,
    commits: usize,
    looks: &'a [u32],
    settings: Vec<SettingWire>,
}

#[derive(Serialize)]
struct SettingWire {
    change_pct: f64,
    seed: u64,
    bisections: usize,
    right: f64,
    wrong: f64,
    interval: f64,
    nothing: f64,
    mean_steps: f64,
    mean_comparisons: f64,
    mean_runs_per_side: f64,
}

/// The JSON text.
pub fn json(s: &SimulatedBisections) -> String {
    let wire = Wire {
        schema: SCHEMA,
        source: &s.source,
        confidence: s.confidence,
        comparison_confidence: s.comparison_confidence,
        commits: s.commits,
        looks: &s.looks,
        settings: s
            .settings
            .iter()
            .map(|(change, seed, t)| SettingWire {
                change_pct: *change,
                seed: *seed,
                bisections: t.replays,
                right: t.rate(t.right),
                wrong: t.rate(t.wrong),
                interval: t.rate(t.interval),
                nothing: t.rate(t.nothing),
                mean_steps: t.mean(t.steps),
                mean_comparisons: t.mean(t.comparisons),
                mean_runs_per_side: t.mean(t.runs),
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&wire).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simulated() -> SimulatedBisections {
        SimulatedBisections {
            source: "the model".into(),
            confidence: 0.95,
            comparison_confidence: 1.0 - 0.05 / 9.0,
            commits: 16,
            looks: vec![8, 16, 32],
            settings: vec![(
                5.0,
                1,
                BisectTally {
                    replays: 4,
                    right: 2,
                    wrong: 1,
                    interval: 1,
                    nothing: 0,
                    steps: 14,
                    comparisons: 20,
                    runs: 200,
                },
            )],
        }
    }

    #[test]
    fn the_table_shows_shares_and_means_per_bisection() {
        let text = table(&simulated());
        assert!(
            text.starts_with(
                "Simulated bisections of 16 commits, one slowdown at a commit drawn uniformly, from the \
                 model; confidence 0.95 for the commit named, each comparison at 0.9944 with looks after 8, \
                 16, 32 runs per side."
            ),
            "{text}"
        );
        let row = text.lines().find(|l| l.contains("5 % (seed 1)")).unwrap();
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            cells[4..],
            [
                "4", "50.00%", "25.00%", "25.00%", "0.00%", "3.50", "5.00", "50.0"
            ],
            "{text}"
        );
    }

    #[test]
    fn the_json_has_its_schema_and_the_rates() {
        let value: serde_json::Value = serde_json::from_str(&json(&simulated())).unwrap();
        assert_eq!(value["schema"], "cargo-speedup-bisect-simulation/1");
        assert_eq!(value["commits"], 16);
        assert_eq!(value["settings"][0]["right"], 0.5);
        assert_eq!(value["settings"][0]["mean_steps"], 3.5);
        assert_eq!(value["settings"][0]["mean_runs_per_side"], 50.0);
    }
}
