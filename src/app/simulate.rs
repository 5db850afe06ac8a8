//! `cargo speedup simulate`: replays the project's plans and paper 002's on benchmarks drawn from the
//! hierarchical model (or resampled from a record file), one setting per true change, and prints each
//! plan's false-decision rates and runs per side (`docs/racing.md`, "Simulated: error and runs").
//!
//! Takes the checked options ([`SimulatePlan`]), builds the plans, runs [`two_versions::simulate`] per
//! setting and hands the tallies to [`crate::report::simulation`]. With `--versions R` (R >= 3) it races R
//! versions per problem instead ([`several_versions::simulate`], `docs/racing.md` §6.1) and hands the
//! tallies to [`crate::report::race_simulation`].

use std::path::Path;

use anyhow::{Context as _, Result, bail};

use super::Outcome;
use crate::cli::{SimulateArgs, SimulateFormat};
use crate::plan::BisectReplay;
use crate::plan::SimulatePlan;
use crate::protocol::Confidence;
use crate::protocol::race::RaceOptions;
use crate::protocol::sequential::LookPlan;
use crate::protocol::{FailOn, Options, Threshold};
use crate::report::bisect_simulation::{self as bisected, SimulatedBisections};
use crate::report::race_simulation::{self as races, SeveralNamed, SimulatedRaces};
use crate::report::simulation::{self as render, NamedPlan, Setting, Simulated};
use crate::simulation::bisections::{self, BisectPlan};
use crate::simulation::raced_profiles::{EquivalenceRule, PaperPlan};
use crate::simulation::several_versions::{self, SeveralPlan};
use crate::simulation::two_versions::{self, Noise, SamplingPlan, Source};

/// Paper 002's operating point for loops (§6): alpha_LT = alpha_EQ = 0.02.
const PAPER_ALPHA: f64 = 0.02;
/// The paper's ε (0.5 %), and the project's default.
const PAPER_EPSILONS: [f64; 2] = [0.5, crate::protocol::equivalence::DEFAULT_MARGIN_PCT];
/// The fixed plans shown; the first is what the savings are measured against.
const FIXED_RUNS: [u32; 2] = [10, 20];

/// The constant plans of a race of several versions, runs per version.
const CONSTANT_RUNS: [usize; 9] = [5, 10, 15, 20, 30, 40, 60, 80, 160];
/// The cap of paper 002's race of several versions, runs per version.
const PAPER_CAP: usize = 160;

/// `simulate`.
pub fn simulate(args: &SimulateArgs) -> Result<Outcome> {
    let plan = SimulatePlan::from_args(args)?;
    let pools = args.record.as_deref().map(recorded_runs).transpose()?;
    let (source, described) = source(args, pools.as_deref());
    if let Some(replay) = plan.bisect {
        return bisections(args, &plan, replay, source, described);
    }
    if args.versions > 2 {
        return several(args, &plan, source, described);
    }
    let named = plans(&plan);
    let plans: Vec<SamplingPlan> = named.iter().map(|n| n.plan.clone()).collect();
    let settings = args
        .change
        .iter()
        .enumerate()
        .map(|(k, &change_pct)| Setting {
            change_pct,
            seed: args.seed.wrapping_add(k as u64),
            tallies: two_versions::simulate(
                source,
                &plans,
                1.0 + change_pct / 100.0,
                args.benchmarks as usize,
                args.seed.wrapping_add(k as u64),
            ),
        })
        .collect();
    let simulated = Simulated {
        source: described,
        confidence: args.confidence,
        benchmarks: args.benchmarks as usize,
        plans: named,
        settings,
    };
    print_as(
        args.format,
        || render::table(&simulated),
        || render::json(&simulated),
    )
}

/// Where the runs come from, and that in words.
fn source<'a>(args: &SimulateArgs, pools: Option<&'a [Vec<f64>]>) -> (Source<'a>, String) {
    match pools {
        Some(pools) => (
            Source::Recorded(pools),
            format!(
                "the process runs of {} benchmark(s) of {}, resampled with replacement",
                pools.len(),
                args.record.as_deref().unwrap_or(Path::new("-")).display()
            ),
        ),
        None => (
            Source::Model(Noise {
                process: args.process / 100.0,
                within: args.within / 100.0,
                layout: args.layout / 100.0,
                drift: 0.0,
            }),
            format!(
                "the hierarchical model: process {} %, within {} % (10 samples per run), layout {} %",
                args.process, args.within, args.layout
            ),
        ),
    }
}

/// `simulate --bisect N`: bisections of N commits replayed at each `--change`, `--benchmarks` of them
/// per setting, each comparison at the per-comparison confidence with its looks.
fn bisections(
    args: &SimulateArgs,
    plan: &SimulatePlan,
    replay: BisectReplay,
    source: Source<'_>,
    described: String,
) -> Result<Outcome> {
    let bisect = BisectPlan {
        commits: replay.commits,
        looks: replay.looks,
        options: options(replay.comparison_confidence, plan.equivalence_pct),
    };
    let settings = args
        .change
        .iter()
        .enumerate()
        .map(|(k, &change_pct)| {
            let seed = args.seed.wrapping_add(k as u64);
            let tally =
                bisections::simulate(source, &bisect, change_pct, args.benchmarks as usize, seed);
            (change_pct, seed, tally)
        })
        .collect();
    let simulated = SimulatedBisections {
        source: described,
        confidence: args.confidence,
        comparison_confidence: replay.comparison_confidence.level(),
        commits: replay.commits,
        looks: replay.looks.looks(),
        settings,
    };
    print_as(
        args.format,
        || bisected::table(&simulated),
        || bisected::json(&simulated),
    )
}

/// The analysis options of the project's plans at `confidence`: no gate, no threshold, unchanged within
/// ±`equivalence_pct`.
fn options(confidence: Confidence, equivalence_pct: f64) -> Options {
    Options {
        confidence,
        hpt_alpha: None,
        hpt_rank: crate::protocol::hpt::Ranking::LogRatio,
        hpt_curve: false,
        speedup_under_test: None,
        fail_on: FailOn::None,
        threshold: Threshold::NONE,
        precision: crate::plan::DEFAULT_PRECISION,
        equivalence_pct,
    }
}

/// `simulate --versions R` (R >= 3): the project's race, the constant plans and paper 002's race on
/// problems of R versions.
fn several(
    args: &SimulateArgs,
    plan: &SimulatePlan,
    source: Source<'_>,
    described: String,
) -> Result<Outcome> {
    let versions = args.versions as usize;
    let equivalence_pct = plan.equivalence_pct;
    let race = plan.looks;
    let looks: Vec<String> = race.looks().iter().map(u32::to_string).collect();
    let options = RaceOptions {
        confidence: plan.confidence,
        equivalence_pct,
        looks: race.count(),
        hpt_alpha: None,
    };
    let mut plans = vec![SeveralNamed {
        name: format!("race {}", looks.join("/")),
        description: format!(
            "the project's race: looks after {} runs per version, rank-sum loser tests and equivalence \
             within ±{equivalence_pct} % at alpha / (K (R − 1)) = {:.5}; losers keep their runs and re-enter",
            looks.join(", "),
            options.comparison_alpha(versions)
        ),
        plan: SeveralPlan::Race {
            plan: race,
            options,
        },
    }];
    for n in CONSTANT_RUNS {
        plans.push(SeveralNamed {
            name: format!("constant {n}"),
            description: format!("{n} runs of every version, the lowest median picked"),
            plan: SeveralPlan::Constant(n),
        });
    }
    let paper = PaperPlan::new(
        PAPER_ALPHA,
        PAPER_ALPHA,
        args.theta,
        2,
        PAPER_CAP,
        EquivalenceRule::Paper,
    )
    .expect("the paper's parameters");
    plans.push(SeveralNamed {
        name: format!("paper 002, ε {} %", args.theta),
        description: format!(
            "Algorithm 1: Welch on log run values after every run from 2 to {PAPER_CAP} per version, \
             alpha_LT = alpha_EQ = {PAPER_ALPHA} (nominal), losers re-enter; equal by the paper's one-sided \
             interval rule within {} %",
            args.theta
        ),
        plan: SeveralPlan::Paper(paper),
    });
    let bare: Vec<SeveralPlan> = plans.iter().map(|p| p.plan.clone()).collect();
    let tallies = several_versions::simulate(
        source,
        &bare,
        versions,
        args.benchmarks as usize,
        args.theta,
        args.seed,
    );
    let simulated = SimulatedRaces {
        source: described,
        confidence: args.confidence,
        versions,
        problems: args.benchmarks as usize,
        theta_pct: args.theta,
        seed: args.seed,
        plans,
        tallies,
    };
    print_as(
        args.format,
        || races::table(&simulated),
        || races::json(&simulated),
    )
}

/// Prints the figures as a table or as JSON, as `--format` asks.
fn print_as(
    format: SimulateFormat,
    table: impl FnOnce() -> String,
    json: impl FnOnce() -> String,
) -> Result<Outcome> {
    let text = match format {
        SimulateFormat::Table => table(),
        SimulateFormat::Json => json(),
    };
    print!("{text}");
    Ok(Outcome::Passed)
}

/// The plans compared: the default race at `confidence`, the fixed plans, and paper 002 at its operating
/// point with ε 0.5 % and 2 %, capped at the race's maximum.
fn plans(plan: &SimulatePlan) -> Vec<NamedPlan> {
    let confidence = plan.confidence;
    let equivalence_pct = plan.equivalence_pct;
    let options = options(confidence, equivalence_pct);
    let race = plan.looks;
    let looks: Vec<String> = race.looks().iter().map(u32::to_string).collect();
    let alpha = confidence.alpha();
    let mut plans = vec![NamedPlan {
        name: format!("sequential {}", looks.join("/")),
        description: format!(
            "the default race: looks after {} runs per side, each deciding at alpha / {} = {:.4}; \
             unchanged within ±{equivalence_pct} %",
            looks.join(", "),
            race.count(),
            alpha / f64::from(race.count())
        ),
        plan: SamplingPlan::Looks {
            plan: race,
            options,
        },
    }];
    for runs in FIXED_RUNS {
        plans.push(NamedPlan {
            name: format!("fixed {runs}"),
            description: format!(
                "--fixed --runs {runs}: one look after {runs} runs per side at alpha = {alpha:.4}"
            ),
            plan: SamplingPlan::Looks {
                plan: LookPlan::fixed(runs).expect("a plan"),
                options,
            },
        });
    }
    for epsilon in PAPER_EPSILONS {
        let paper = PaperPlan::new(
            PAPER_ALPHA,
            PAPER_ALPHA,
            epsilon,
            2,
            race.max() as usize,
            EquivalenceRule::Paper,
        )
        .expect("the paper's parameters");
        plans.push(NamedPlan {
            name: format!("paper 002, ε {epsilon} %"),
            description: format!(
                "Welch on log run values after every run from 2 to {} per side, alpha_LT = alpha_EQ = \
                 {PAPER_ALPHA} (nominal); equal by the paper's one-sided interval rule within {epsilon} %",
                race.max()
            ),
            plan: SamplingPlan::Paper(paper),
        });
    }
    plans
}

/// The run values of each benchmark of `path` that has at least two process runs.
fn recorded_runs(path: &Path) -> Result<Vec<Vec<f64>>> {
    let spec = path.display().to_string();
    let results = crate::sources::load(&spec, &crate::sources::ReadOptions::from_env())
        .with_context(|| format!("--record {spec}"))?;
    let pools: Vec<Vec<f64>> = results
        .benchmarks
        .iter()
        .map(|b| b.runs.values())
        .filter(|values| values.len() >= 2)
        .collect();
    if pools.is_empty() {
        bail!(
            "--record {spec}: no benchmark has two or more process runs to resample\n\
             hint: record with several runs, e.g. `cargo speedup record --runs 20 -o {spec}`"
        );
    }
    Ok(pools)
}
