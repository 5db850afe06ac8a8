//! Data and helpers shared by the tests of several modules: hand-built analyses and a bisection for the
//! renderers, the R oracle fixtures (`fixtures/oracle/`), the paper's example and the R oracle cases of the
//! Speedup-Test protocol, a part report for `merge`, the committed input files of the readers, a report
//! rendered into a string, simulated results and a race of drawn runs. Compiled only with the tests
//! (`#[cfg(test)]` in `lib.rs`), never in the product; a fixture here may import from any layer. A helper
//! used by the tests of one module only stays in that module's tests.

pub(crate) mod analyses;
pub(crate) mod bisection;
pub(crate) mod oracle;
pub(crate) mod part_report;
pub(crate) mod protocol_cases;
pub(crate) mod render;
pub(crate) mod source_fixtures;
pub(crate) mod time_and_count;

use crate::model::{Benchmark, Environment, Results, Run, Runs, Suite, Unit};
use crate::protocol::sequential::{LookPlan, open_benchmarks};
use crate::protocol::{Analysis, Design, Options, analyse};

/// One side's results named "simulated", every benchmark in nanoseconds.
pub(crate) fn simulated_results(benchmarks: Vec<(String, Runs)>) -> Results {
    Results {
        origin: "simulated".into(),
        benchmarks: benchmarks
            .into_iter()
            .map(|(name, runs)| Benchmark {
                name,
                runs,
                unit: Unit::Ns,
                counters: Vec::new(),
            })
            .collect(),
        environment: Environment::default(),
        notes: vec![],
        left_out: vec![],
    }
}

/// A benchmark's name and the runs drawn for BASE and HEAD, up to a plan's maximum.
#[derive(Debug, Clone)]
pub(crate) struct Drawn {
    /// The benchmark's name.
    pub(crate) name: String,
    /// BASE's drawn runs, in the order they would run.
    pub(crate) base: Vec<Run>,
    /// HEAD's drawn runs, in the order they would run.
    pub(crate) head: Vec<Run>,
}

/// A race of a whole suite as the runner runs it: at each look the open benchmarks take the runs up to
/// it, decided ones keep what they had ([`open_benchmarks`] between looks); returns the final analysis
/// (at the plan's K looks) and the runs per side each benchmark used.
pub(crate) fn race_suite(
    drawn: &[Drawn],
    plan: LookPlan,
    options: &Options,
) -> (Analysis, Vec<usize>) {
    let suite_at = |used: &[usize]| {
        let side = |pick: fn(&Drawn) -> &Vec<Run>| {
            simulated_results(
                drawn
                    .iter()
                    .zip(used)
                    .map(|(d, &n)| {
                        let runs = Runs::new(pick(d)[..n].to_vec()).expect("runs");
                        (d.name.clone(), runs)
                    })
                    .collect(),
            )
        };
        Suite {
            design: Design::measured(plan.count()),
            ..Suite::pair(side(|d| &d.base), side(|d| &d.head))
        }
    };
    let mut used = vec![plan.min() as usize; drawn.len()];
    let mut open: Vec<String> = drawn.iter().map(|d| d.name.clone()).collect();
    for look in plan.looks() {
        for (d, n) in drawn.iter().zip(used.iter_mut()) {
            if open.contains(&d.name) {
                *n = look as usize;
            }
        }
        open = open_benchmarks(&suite_at(&used), options, plan.max());
        if open.is_empty() {
            break;
        }
    }
    (analyse(&suite_at(&used), options), used)
}
