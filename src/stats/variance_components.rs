//! Variance components of a one-way random-effects model, by the method of moments (ANOVA estimators).
//!
//! Model: y[g, i] = mu + a\[g\] + e[g, i], with a\[g\] ~ (0, sigma_a²) the effect of group g (a process run,
//! or a linked layout) and e ~ (0, sigma_e²) the noise inside a group. With G groups of sizes m_g and
//! N = Σ m_g observations (Searle, Casella & McCulloch, *Variance Components*, Wiley 1992, §3.5, the
//! unbalanced one-way classification):
//!
//! - MSW = Σ_g Σ_i (y[g, i] − ȳ_g)² / (N − G), the mean square within groups;
//! - MSB = Σ_g m_g (ȳ_g − ȳ)² / (G − 1), the mean square between groups;
//! - n0 = (N − Σ m_g² / N) / (G − 1), the effective group size (m when every group has m);
//! - sigma_e² = MSW and sigma_a² = max(0, (MSB − MSW) / n0), truncated at 0 as is usual.
//!
//! The intraclass correlation is ICC = sigma_a² / (sigma_a² + sigma_e²), and the design effect of treating
//! the N observations as independent is 1 + (m̄ − 1) ICC with m̄ = N / G (Kish, *Survey Sampling*, 1965,
//! §5.4): the factor by which pooling underestimates the variance of a mean (`docs/replication.md` §2).
//!
//! The report applies this to log times, so that the square roots of the components are relative spreads
//! (a standard deviation of 0.02 in ln is about 2 % of the median). MSB and MSW match R's
//! `anova(lm(y ~ factor(g)))` (`fixtures/r/variance_components.R`). Nothing here decides.

use super::{StatsError, StatsResult, check_finite};

/// The two components and what follows from them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Components {
    /// sigma_a²: the variance between groups, beyond what the noise within groups explains.
    pub between: f64,
    /// sigma_e²: the variance within groups.
    pub within: f64,
    /// The mean square between groups (R's `Mean Sq` of the factor).
    pub mean_square_between: f64,
    /// The mean square within groups (R's `Mean Sq` of the residuals).
    pub mean_square_within: f64,
    /// sigma_a² / (sigma_a² + sigma_e²); 0 when both are 0.
    pub icc: f64,
    /// 1 + (N / G − 1) ICC.
    pub design_effect: f64,
}

/// The components of `groups`, each the observations of one group. Needs at least two groups and at least
/// one group with two observations (else nothing separates the two levels).
pub fn one_way(groups: &[&[f64]]) -> StatsResult<Components> {
    for g in groups {
        check_finite(g)?;
    }
    let groups: Vec<&[f64]> = groups.iter().copied().filter(|g| !g.is_empty()).collect();
    let count = groups.len();
    let total: usize = groups.iter().map(|g| g.len()).sum();
    if count < 2 {
        return Err(StatsError::TooFew {
            needed: 2,
            got: count,
        });
    }
    if total <= count {
        return Err(StatsError::TooFew {
            needed: count + 1,
            got: total,
        });
    }
    let means: Vec<f64> = groups.iter().map(|g| mean(g)).collect();
    let grand = groups.iter().flat_map(|g| g.iter()).sum::<f64>() / total as f64;
    let within_ss: f64 = groups
        .iter()
        .zip(&means)
        .map(|(g, m)| g.iter().map(|y| (y - m).powi(2)).sum::<f64>())
        .sum();
    let between_ss: f64 = groups
        .iter()
        .zip(&means)
        .map(|(g, m)| g.len() as f64 * (m - grand).powi(2))
        .sum();
    let (g, n) = (count as f64, total as f64);
    let mean_square_within = within_ss / (n - g);
    let mean_square_between = between_ss / (g - 1.0);
    let sum_sq_sizes: f64 = groups.iter().map(|gr| (gr.len() as f64).powi(2)).sum();
    let n0 = (n - sum_sq_sizes / n) / (g - 1.0);
    let between = ((mean_square_between - mean_square_within) / n0).max(0.0);
    let within = mean_square_within;
    let icc = if between + within > 0.0 {
        between / (between + within)
    } else {
        0.0
    };
    Ok(Components {
        between,
        within,
        mean_square_between,
        mean_square_within,
        icc,
        design_effect: 1.0 + (n / g - 1.0) * icc,
    })
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::oracle::{assert_rel, load, number, numbers};

    #[test]
    fn mean_squares_match_r_anova() {
        let fixture = load("variance_components");
        for case in fixture["cases"].as_array().expect("cases") {
            let name = case["name"].as_str().expect("name");
            let groups: Vec<Vec<f64>> = case["groups"]
                .as_array()
                .expect("groups")
                .iter()
                .map(numbers)
                .collect();
            let refs: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
            let c = one_way(&refs).unwrap_or_else(|e| panic!("{name}: {e}"));
            // R's sums of squares carry rounding noise (6e-31 where the exact value is 0): compare MSB on
            // the scale of both mean squares.
            let (msb, msw) = (number(&case["msb"]), number(&case["msw"]));
            assert!(
                (c.mean_square_between - msb).abs() <= 1e-11 * (msb + msw),
                "{name}: MSB {} vs R {msb}",
                c.mean_square_between
            );
            assert_rel(
                name,
                "MSW",
                c.mean_square_within,
                number(&case["msw"]),
                1e-11,
            );
            assert_rel(name, "between", c.between, number(&case["between"]), 1e-9);
            let deff = number(&case["design_effect"]);
            assert_rel(name, "design effect", c.design_effect, deff, 1e-9);
        }
    }

    #[test]
    fn balanced_groups_give_the_textbook_estimate() {
        // Two groups of two: means 1.5 and 5.5, grand mean 3.5; MSW = (0.25 * 4) / 2 = 0.5,
        // MSB = 2 * (4 + 4) / 1 = 16, n0 = 2, sigma_a² = (16 - 0.5) / 2 = 7.75.
        let c = one_way(&[&[1.0, 2.0], &[5.0, 6.0]]).unwrap();
        assert_eq!(c.mean_square_within, 0.5);
        assert_eq!(c.mean_square_between, 16.0);
        assert_eq!(c.between, 7.75);
        assert!((c.icc - 7.75 / 8.25).abs() < 1e-15);
        assert!((c.design_effect - (1.0 + 7.75 / 8.25)).abs() < 1e-15);
    }

    #[test]
    fn groups_alike_have_no_between_component() {
        let c = one_way(&[&[1.0, 3.0], &[1.0, 3.0], &[3.0, 1.0]]).unwrap();
        assert_eq!(c.between, 0.0);
        assert_eq!(c.design_effect, 1.0);
    }

    #[test]
    fn too_few_to_separate_the_levels_is_an_error() {
        assert!(one_way(&[&[1.0, 2.0]]).is_err());
        assert!(one_way(&[&[1.0], &[2.0]]).is_err());
        assert!(one_way(&[&[1.0, f64::NAN], &[2.0]]).is_err());
    }
}
