//! Points as numbers and as text: one home for rounding them and for
//! writing them.

/// Points rounded to four decimals: sums of fractional points are not
/// exact in binary, and reports should say 57, not 57.00000000000004.
pub fn round(points: f64) -> f64 {
    (points * 10_000.0).round() / 10_000.0
}

/// How many decimals points carry (0 to 4): `3.125` has 3, `57` none.
pub fn decimals(points: impl IntoIterator<Item = f64>) -> usize {
    points
        .into_iter()
        .map(|p| self::points(p).split_once('.').map_or(0, |(_, d)| d.len()))
        .max()
        .unwrap_or(0)
}

/// A figure computed from points (a class's mean), rounded as the points
/// are: to the decimals they carry, at least one (a mean of whole points
/// is rarely whole: `25.4 of 57`) and at most two (a mean to a
/// thousandth of a point says nothing more to a TA); no needless zeros.
pub fn figure(value: f64, decimals: usize) -> String {
    to_decimals(value, decimals.clamp(1, 2))
}

/// Points to four decimals at most, without needless zeros (`57`,
/// `1.25`, `0.0625`): sums of fractional points are not exact.
pub fn points(p: f64) -> String {
    to_decimals(p, 4)
}

/// `value` to `decimals` decimals at most, without needless zeros.
fn to_decimals(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_rounded_as_the_points_are() {
        assert_eq!(decimals([57.0, 3.0]), 0);
        assert_eq!(decimals([0.5, 3.125, 2.0]), 3);
        assert_eq!(decimals([]), 0);
        assert_eq!(figure(25.409_090_9, decimals([57.0])), "25.4");
        assert_eq!(figure(25.0, 0), "25");
        assert_eq!(figure(1.5625, decimals([3.125])), "1.56");
        assert_eq!(figure(0.5, 1), "0.5");
        assert_eq!(figure(2.999, 1), "3");
    }
}
