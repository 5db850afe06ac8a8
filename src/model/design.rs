//! How the runs of a suite were had, which the runs themselves do not say: the looks of the plan that
//! measured them and how more runs can be had. Whoever measured or read the data builds it, once, and it
//! travels with the [`Suite`](super::Suite) to the analysis: `compare` read files ([`Design::READ`]), the
//! revision form measured under a plan of K looks ([`Design::measured`]), `merge` joined parts so measured.
//!
//! Must not: decide anything, or know the command line (the analysis' options are `protocol::Options`).

/// How a comparison can get more runs: by a flag of this command, or by measuring again elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Remedy {
    /// The runs are measured by this command (`BASE..HEAD`): hints may name `--runs`.
    RunHere,
    /// The results exist already (`compare`): hints say what to measure, in no command's flags.
    MeasureAgain,
}

/// The design of the measurement behind a suite: its looks, and its remedy for too few runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Design {
    looks: u32,
    remedy: Remedy,
}

impl Design {
    /// Results read from files (`compare`): one look at data that exists already; more runs are had by
    /// measuring again.
    pub const READ: Design = Design {
        looks: 1,
        remedy: Remedy::MeasureAgain,
    };

    /// Runs this command measured under a plan of `looks` looks (1 for a fixed plan; 0 is taken as 1):
    /// every per-benchmark decision is then taken at risk alpha / looks (`docs/racing.md` §2), and hints
    /// may name the flags that measure more.
    pub fn measured(looks: u32) -> Design {
        Design {
            looks: looks.max(1),
            remedy: Remedy::RunHere,
        }
    }

    /// How many looks at the data the plan that measured it could take, at least 1.
    pub fn looks(self) -> u32 {
        self.looks
    }

    /// How more runs can be had, for the hints.
    pub fn remedy(self) -> Remedy {
        self.remedy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_results_take_one_look_and_measured_ones_at_least_one() {
        assert_eq!(
            (Design::READ.looks(), Design::READ.remedy()),
            (1, Remedy::MeasureAgain)
        );
        assert_eq!(
            (Design::measured(3).looks(), Design::measured(3).remedy()),
            (3, Remedy::RunHere)
        );
        assert_eq!(Design::measured(0).looks(), 1);
    }
}
