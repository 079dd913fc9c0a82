//! Pure syntax (the twin of the Python `notation` package for what the native core reads
//! and writes): play texts, position strings, and `.mat` records as the record fast path
//! reads them. It knows nothing of the rules.

pub mod mat_reader;
pub mod plays;
pub mod positions;
pub mod record;
pub mod text;
