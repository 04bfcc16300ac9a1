//! Points as numbers and as text: one home for rounding them and for
//! writing them.

/// Points rounded to four decimals: sums of fractional points are not
/// exact in binary, and reports should say 57, not 57.00000000000004.
pub fn round(points: f64) -> f64 {
    (points * 10_000.0).round() / 10_000.0
}

/// Points to four decimals at most, without needless zeros (`57`,
/// `1.25`, `0.0625`): sums of fractional points are not exact.
pub fn points(p: f64) -> String {
    let text = format!("{p:.4}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
