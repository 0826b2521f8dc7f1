//! Least-squares straight line `y = slope · x + intercept` and its coefficient of
//! determination R², the fit the toy's Fig. 28 made with a spreadsheet (Parberry, Collision
//! Math Toy).
//!
//! With means `x̄, ȳ`: `slope = Sxy / Sxx`, `intercept = ȳ − slope · x̄`, and
//! `R² = 1 − SSres / SStot` where `SSres = Σ (y − ŷ)²` and `SStot = Σ (y − ȳ)²`. Sums are in
//! f64 over centred values, which keeps them accurate for counts in the millions.

/// A fitted line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearFit {
    /// Slope (y units per x unit).
    pub slope: f64,
    /// Value at x = 0.
    pub intercept: f64,
    /// Coefficient of determination: 1 for points exactly on the line.
    pub r2: f64,
}

impl LinearFit {
    /// The line's value at `x`.
    pub fn at(&self, x: f64) -> f64 {
        self.slope * x + self.intercept
    }
}

/// The least-squares line through `points` `(x, y)`; `None` with fewer than two distinct x
/// or a non-finite value.
pub fn linear_fit(points: &[(f64, f64)]) -> Option<LinearFit> {
    if points.len() < 2 || points.iter().any(|p| !p.0.is_finite() || !p.1.is_finite()) {
        return None;
    }
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    // All x equal: no line is defined.
    if sxx == 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let ss_tot: f64 = points.iter().map(|p| (p.1 - my).powi(2)).sum();
    let ss_res: f64 = points
        .iter()
        .map(|p| (p.1 - (slope * p.0 + intercept)).powi(2))
        .sum();
    // A flat set of points is fitted exactly by the flat line.
    let r2 = if ss_tot == 0.0 {
        1.0
    } else {
        1.0 - ss_res / ss_tot
    };
    Some(LinearFit {
        slope,
        intercept,
        r2,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
    }

    #[test]
    fn exact_line_is_recovered_with_r2_one() {
        let pts: Vec<(f64, f64)> = (2..=32).map(|n| (n as f64, 2.9 * n as f64 - 4.0)).collect();
        let f = linear_fit(&pts).unwrap();
        assert!(close(f.slope, 2.9), "{f:?}");
        assert!(close(f.intercept, -4.0), "{f:?}");
        assert!(close(f.r2, 1.0), "{f:?}");
        assert!(close(f.at(10.0), 25.0));
    }

    #[test]
    fn noisy_points_have_r2_below_one() {
        let pts = [(0.0, 0.0), (1.0, 2.0), (2.0, 1.0), (3.0, 3.0)];
        let f = linear_fit(&pts).unwrap();
        // Sxx = 5, Sxy = 4: slope 0.8, intercept 1.5 − 0.8 · 1.5 = 0.3; SSres 1.8, SStot 5.
        assert!(close(f.slope, 0.8) && close(f.intercept, 0.3), "{f:?}");
        assert!(close(f.r2, 1.0 - 1.8 / 5.0), "{f:?}");
    }

    #[test]
    fn degenerate_inputs_give_none() {
        assert_eq!(linear_fit(&[]), None);
        assert_eq!(linear_fit(&[(1.0, 2.0)]), None);
        assert_eq!(linear_fit(&[(1.0, 2.0), (1.0, 3.0)]), None);
        assert_eq!(linear_fit(&[(0.0, 1.0), (f64::NAN, 3.0)]), None);
    }

    #[test]
    fn flat_points_fit_exactly() {
        let f = linear_fit(&[(0.0, 5.0), (1.0, 5.0), (2.0, 5.0)]).unwrap();
        assert!(close(f.slope, 0.0) && close(f.intercept, 5.0) && f.r2 == 1.0);
    }
}
