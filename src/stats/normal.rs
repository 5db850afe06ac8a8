//! The standard normal distribution at full double precision.
//!
//! statrs' `Normal::cdf` is accurate to only about 1e-10 relative (`docs/statistics.md` §8), not enough to match R
//! to 1e-9 in the tails, so Φ is computed from `libm::erfc`; the quantile uses statrs' `inverse_cdf`
//! (accurate to 3e-16).

use statrs::distribution::{ContinuousCDF, Normal};

/// Φ(z), the standard normal lower tail.
pub fn cdf(z: f64) -> f64 {
    0.5 * libm::erfc(-z / std::f64::consts::SQRT_2)
}

/// 1 − Φ(z), computed without cancellation.
pub fn sf(z: f64) -> f64 {
    0.5 * libm::erfc(z / std::f64::consts::SQRT_2)
}

/// Φ⁻¹(p) for p in (0, 1); −∞ at 0 and +∞ at 1.
pub fn quantile(p: f64) -> f64 {
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    standard().inverse_cdf(p)
}

fn standard() -> Normal {
    Normal::standard()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_match_r_pnorm() {
        // R: sprintf("%.17g", pnorm(-1)) = 0.15865525393145707
        assert!((cdf(-1.0) - 0.15865525393145707).abs() < 1e-17);
        // R: pnorm(8, lower.tail = FALSE) = 6.220_960_574_271_784e-16
        assert!((sf(8.0) / 6.220_960_574_271_784e-16 - 1.0).abs() < 1e-12);
        // R: qnorm(0.975) = 1.959963984540054
        assert!((quantile(0.975) - 1.959963984540054).abs() < 1e-14);
    }
}
