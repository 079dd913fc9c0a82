//! The character classes and numbers the Python reader's patterns use, as the native
//! reader and play parser need them.

/// Python's `str.isspace` (Rust's White_Space plus the ASCII separators \x1c-\x1f).
pub fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `\s` on an ASCII byte.
pub fn ascii_space(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f
    )
}

/// The value of ASCII digits (at most nine of them, so no overflow).
pub fn digits_value(digits: &[u8]) -> u32 {
    digits
        .iter()
        .fold(0, |value, digit| value * 10 + u32::from(digit - b'0'))
}
