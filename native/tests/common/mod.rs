//! What the tests share.

use nardy_native::rules::board::Layout;
use nardy_native::vocabulary::{CHECKERS, OFF};

/// A layout with the given (own point, count) pairs and the rest borne off.
pub fn layout(points: &[(usize, u8)]) -> Layout {
    let mut cells = [0; 26];
    for &(point, count) in points {
        cells[point] += count;
    }
    cells[OFF] = CHECKERS - cells[1..].iter().sum::<u8>();
    cells
}
