//! `cargo speedup simulate`: replays the project's plans and paper 002's on replicates drawn from the
//! hierarchical model (or resampled from a record file) and prints what each plan decided
//! (`docs/racing.md`, "Simulated: error and runs").
//!
//! Takes the checked options ([`SimulatePlan`]), chooses the design and its plans (two versions, one
//! setting per true change; `--versions R`, R >= 3, races of R versions, `docs/racing.md` §6.1;
//! `--bisect N`, bisections, `docs/bisect.md` §8), runs them through [`harness`] and hands the tallies to
//! [`crate::report::simulation`].

use std::path::Path;

use anyhow::{Context as _, Result, bail};

use super::Outcome;
use crate::cli::{SimulateArgs, SimulateFormat};
use crate::plan::{BisectReplay, SimulatePlan};
use crate::protocol::gate::DEFAULT_THRESHOLD_PCT;
use crate::protocol::race::RaceOptions;
use crate::protocol::sequential::LookPlan;
use crate::protocol::{Confidence, FailOn, Options, Threshold};
use crate::report::simulation::{self as render, NamedPlan, Simulated, SimulationDesign};
use crate::simulation::bisections::{BisectPlan, Bisections};
use crate::simulation::harness::{self, Setting};
use crate::simulation::model::{Noise, Source};
use crate::simulation::raced_profiles::{EquivalenceRule, PaperPlan};
use crate::simulation::several_versions::{SeveralPlan, SeveralVersions};
use crate::simulation::two_versions::{SamplingPlan, TwoVersions};

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
pub(super) fn simulate(args: &SimulateArgs) -> Result<Outcome> {
    let plan = SimulatePlan::from_args(args)?;
    let pools = args.record.as_deref().map(recorded_runs).transpose()?;
    let (source, described) = source(args, pools.as_deref());
    let (design, plans, settings) = match plan.bisect {
        Some(replay) => bisections(args, &plan, replay, source),
        None if args.versions > 2 => several(args, &plan, source),
        None => two_versions(args, &plan, source),
    };
    let simulated = Simulated {
        design,
        source: described,
        confidence: args.confidence,
        replicates: args.benchmarks as usize,
        plans,
        settings,
    };
    print!(
        "{}",
        match args.format {
            SimulateFormat::Table => render::table(&simulated),
            SimulateFormat::Json => render::json(&simulated),
        }
    );
    Ok(Outcome::Passed)
}

/// What one design replayed: the design, its plans named, and one setting per true change.
type Replayed = (SimulationDesign, Vec<NamedPlan>, Vec<Setting>);

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

/// A plan's name, its sentence and its cap.
fn named(name: String, description: String, max_runs: usize) -> NamedPlan {
    NamedPlan {
        name,
        description,
        max_runs,
        equivalence_pct: None,
        constant: false,
    }
}

/// A two-version plan with its name and sentence.
fn two(name: String, description: String, plan: SamplingPlan) -> (NamedPlan, SamplingPlan) {
    let equivalence_pct = Some(plan.equivalence_pct());
    let named = named(name, description, plan.max_runs());
    (
        NamedPlan {
            equivalence_pct,
            ..named
        },
        plan,
    )
}

/// A plan of several versions with its name and sentence.
fn several_named(name: String, description: String, plan: SeveralPlan) -> (NamedPlan, SeveralPlan) {
    let constant = matches!(plan, SeveralPlan::Constant(_));
    let named = named(name, description, plan.max_runs());
    (NamedPlan { constant, ..named }, plan)
}

/// BASE against HEAD at each `--change`: the default race at `--confidence`, the fixed plans, and paper
/// 002 at its operating point with ε 0.5 % and 2 %, capped at the race's maximum; all on the same draws.
fn two_versions(args: &SimulateArgs, plan: &SimulatePlan, source: Source<'_>) -> Replayed {
    let equivalence_pct = plan.equivalence_pct;
    let options = options(plan.confidence, equivalence_pct);
    let race = plan.looks;
    let looks: Vec<String> = race.looks().iter().map(u32::to_string).collect();
    let alpha = plan.confidence.alpha();
    let mut plans = vec![two(
        format!("sequential {}", looks.join("/")),
        format!(
            "the default race: looks after {} runs per side, each deciding at alpha / {} = {:.4}; \
             unchanged within ±{equivalence_pct} %",
            looks.join(", "),
            race.count(),
            alpha / f64::from(race.count())
        ),
        SamplingPlan::Looks {
            plan: race,
            options,
        },
    )];
    for runs in FIXED_RUNS {
        plans.push(two(
            format!("fixed {runs}"),
            format!(
                "--fixed --runs {runs}: one look after {runs} runs per side at alpha = {alpha:.4}"
            ),
            SamplingPlan::Looks {
                plan: LookPlan::fixed(runs).expect("a plan"),
                options,
            },
        ));
    }
    for epsilon in PAPER_EPSILONS {
        plans.push(two(
            format!("paper 002, ε {epsilon} %"),
            format!(
                "Welch on log run values after every run from 2 to {} per side, alpha_LT = alpha_EQ = \
                 {PAPER_ALPHA} (nominal); equal by the paper's one-sided interval rule within {epsilon} %",
                race.max()
            ),
            SamplingPlan::Paper(paper(epsilon, race.max() as usize)),
        ));
    }
    let (named, replayed): (Vec<NamedPlan>, Vec<SamplingPlan>) = plans.into_iter().unzip();
    let settings = harness::settings(
        &args.change,
        args.benchmarks as usize,
        args.seed,
        |change_pct| TwoVersions {
            source,
            plans: &replayed,
            factor: 1.0 + change_pct / 100.0,
        },
    );
    (SimulationDesign::TwoVersions, named, settings)
}

/// `--versions R` (R >= 3): the project's race, the constant plans and paper 002's race on problems of R
/// versions.
fn several(args: &SimulateArgs, plan: &SimulatePlan, source: Source<'_>) -> Replayed {
    let versions = args.versions as usize;
    let equivalence_pct = plan.equivalence_pct;
    let race = plan.looks;
    let looks: Vec<String> = race.looks().iter().map(u32::to_string).collect();
    let options = options(plan.confidence, equivalence_pct);
    let mut plans = vec![several_named(
        format!("race {}", looks.join("/")),
        format!(
            "the project's race: looks after {} runs per version, rank-sum loser tests and equivalence \
             within ±{equivalence_pct} % at alpha / (K (R − 1)) = {:.5}; losers keep their runs and re-enter",
            looks.join(", "),
            RaceOptions::new(&options, crate::model::Design::measured(race.count()))
                .comparison_alpha(versions)
        ),
        SeveralPlan::Race {
            plan: race,
            options,
        },
    )];
    for n in CONSTANT_RUNS {
        plans.push(several_named(
            format!("constant {n}"),
            format!("{n} runs of every version, the lowest median picked"),
            SeveralPlan::Constant(n),
        ));
    }
    plans.push(several_named(
        format!("paper 002, ε {} %", args.theta),
        format!(
            "Algorithm 1: Welch on log run values after every run from 2 to {PAPER_CAP} per version, \
             alpha_LT = alpha_EQ = {PAPER_ALPHA} (nominal), losers re-enter; equal by the paper's one-sided \
             interval rule within {} %",
            args.theta
        ),
        SeveralPlan::Paper(paper(args.theta, PAPER_CAP)),
    ));
    let (named, replayed): (Vec<NamedPlan>, Vec<SeveralPlan>) = plans.into_iter().unzip();
    let simulation = SeveralVersions {
        source,
        plans: &replayed,
        versions,
        theta_pct: args.theta,
    };
    let settings = harness::settings(&[0.0], args.benchmarks as usize, args.seed, |_| simulation);
    let design = SimulationDesign::Versions {
        versions,
        theta_pct: args.theta,
    };
    (design, named, settings)
}

/// `--bisect N`: bisections of N commits replayed at each `--change`, each comparison at the
/// per-comparison confidence with its looks, each step counting a change beyond `cargo speedup bisect`'s
/// default `--threshold` ([`DEFAULT_THRESHOLD_PCT`]).
fn bisections(
    args: &SimulateArgs,
    plan: &SimulatePlan,
    replay: BisectReplay,
    source: Source<'_>,
) -> Replayed {
    let bisect = BisectPlan {
        commits: replay.commits,
        looks: replay.looks,
        options: options(replay.comparison_confidence, plan.equivalence_pct).with_threshold(
            Threshold::percent(DEFAULT_THRESHOLD_PCT).expect("the default threshold"),
        ),
    };
    let settings = harness::settings(
        &args.change,
        args.benchmarks as usize,
        args.seed,
        |change_pct| Bisections {
            source,
            plan: bisect,
            change_pct,
        },
    );
    let design = SimulationDesign::Bisections {
        commits: replay.commits,
        comparison_confidence: replay.comparison_confidence.level(),
        looks: replay.looks.looks(),
        threshold_pct: bisect.options.threshold().pct(),
    };
    (design, Vec::new(), settings)
}

/// Paper 002's race at its operating point with ε `epsilon_pct`, from 2 runs to `cap`.
fn paper(epsilon_pct: f64, cap: usize) -> PaperPlan {
    PaperPlan::new(
        PAPER_ALPHA,
        PAPER_ALPHA,
        epsilon_pct,
        2,
        cap,
        EquivalenceRule::Paper,
    )
    .expect("the paper's parameters")
}

/// The analysis options of the project's plans at `confidence`: no gate, no threshold, unchanged within
/// ±`equivalence_pct`.
fn options(confidence: Confidence, equivalence_pct: f64) -> Options {
    Options::defaults(FailOn::None)
        .with_confidence(confidence)
        .with_equivalence_pct(equivalence_pct)
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
