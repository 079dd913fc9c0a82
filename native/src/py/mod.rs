//! The Python module `nardy_native`: plain values in, plain values out; the Python engine
//! builds its own objects from them.

// PyO3 0.22's `#[pyfunction]` expansion converts `PyErr` into itself, which this clippy
// reports at the signature; the code written here has no such conversion.
#![allow(clippy::useless_conversion)]

mod engine;
mod plays;
mod record;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::error::Error;

impl From<Error> for PyErr {
    fn from(error: Error) -> PyErr {
        PyValueError::new_err(error.to_string())
    }
}

#[pymodule]
fn nardy_native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    plays::register(module)?;
    engine::register(module)?;
    record::register(module)?;
    Ok(())
}
