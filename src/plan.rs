//! Validated, typed options built from the command line: every value a user can get wrong is checked here
//! once, with a message that names the flag and the accepted range.

use crate::cli::{AnalysisArgs, FailOnArg};
use crate::protocol::FailOn;

/// A bad option value: exit status 2.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid value {value} for {flag}: {expected}")]
pub struct PlanError {
    pub flag: &'static str,
    pub value: String,
    pub expected: &'static str,
}

/// The options of the analysis itself, independent of where the results come from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnalysisPlan {
    /// Confidence level of every decision and r of the r-speedup, in (0, 1).
    pub confidence: f64,
    /// Risk of HPT's per-benchmark tests; `None` for the paper's default.
    pub hpt_alpha: Option<f64>,
    /// `--speedup-under-test`, at least 1.
    pub speedup_under_test: Option<f64>,
    pub fail_on: FailOn,
    /// Percent, >= 0.
    pub threshold: f64,
}

impl AnalysisPlan {
    pub fn from_args(args: &AnalysisArgs) -> Result<AnalysisPlan, PlanError> {
        let open_unit = |flag, v: f64| {
            if v > 0.0 && v < 1.0 {
                Ok(v)
            } else {
                Err(PlanError {
                    flag,
                    value: v.to_string(),
                    expected: "a number strictly between 0 and 1, e.g. 0.95",
                })
            }
        };
        let confidence = open_unit("--confidence", args.confidence)?;
        let hpt_alpha = args
            .hpt_alpha
            .map(|a| open_unit("--hpt-alpha", a))
            .transpose()?;
        let speedup_under_test = match args.speedup_under_test {
            Some(g) if !(g.is_finite() && g > 0.0) => {
                return Err(PlanError {
                    flag: "--speedup-under-test",
                    value: g.to_string(),
                    expected: "a positive speedup factor, e.g. 1.1",
                });
            }
            other => other,
        };
        if !(args.threshold.is_finite() && args.threshold >= 0.0) {
            return Err(PlanError {
                flag: "--threshold",
                value: args.threshold.to_string(),
                expected: "a percentage >= 0, e.g. 5",
            });
        }
        Ok(AnalysisPlan {
            confidence,
            hpt_alpha,
            speedup_under_test,
            fail_on: match args.fail_on {
                FailOnArg::None => FailOn::None,
                FailOnArg::Suite => FailOn::Suite,
                FailOnArg::Any => FailOn::Any,
            },
            threshold: args.threshold,
        })
    }
}
