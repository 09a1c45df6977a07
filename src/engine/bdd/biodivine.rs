//! [`Diagrams`] on `biodivine-lib-bdd`: each set is its own array of nodes, with no
//! table shared between sets. Operations never run out of room; the search bounds
//! what it holds by measuring its sets.

use biodivine_lib_bdd::{Bdd, BddPartialValuation, BddValuation, BddVariable, BddVariableSet};

use super::diagram::{Diagrams, Full};

/// The variables of the sets.
pub struct Biodivine {
    vars: BddVariableSet,
}

impl Biodivine {
    /// A library over `vars` variables (at most 65 535).
    pub fn new(vars: usize) -> Biodivine {
        let count = u16::try_from(vars).expect("at most 65 535 variables");
        Biodivine {
            vars: BddVariableSet::new_anonymous(count),
        }
    }
}

/// The library's name for variable `var`.
fn var(var: usize) -> BddVariable {
    BddVariable::from_index(var)
}

/// The literals `values` as the library's partial valuation.
fn partial(values: &[(usize, bool)]) -> BddPartialValuation {
    let values: Vec<(BddVariable, bool)> = values.iter().map(|&(v, b)| (var(v), b)).collect();
    BddPartialValuation::from_values(&values)
}

impl Diagrams for Biodivine {
    type Set = Bdd;

    fn empty(&self) -> Bdd {
        self.vars.mk_false()
    }

    fn full(&self) -> Bdd {
        self.vars.mk_true()
    }

    fn literal(&self, v: usize, value: bool) -> Result<Bdd, Full> {
        Ok(self.vars.mk_literal(var(v), value))
    }

    fn cube(&self, values: &[(usize, bool)]) -> Result<Bdd, Full> {
        // Built in one pass, where conjunctions one literal at a time would take time
        // quadratic in the literals (a start on a large board has thousands).
        Ok(self.vars.mk_conjunctive_clause(&partial(values)))
    }

    fn clause(&self, values: &[(usize, bool)]) -> Result<Bdd, Full> {
        Ok(self.vars.mk_disjunctive_clause(&partial(values)))
    }

    fn and(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, Full> {
        Ok(a.and(b))
    }

    fn or(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, Full> {
        Ok(a.or(b))
    }

    fn and_not(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, Full> {
        Ok(a.and_not(b))
    }

    fn restrict(&self, a: &Bdd, values: &[(usize, bool)]) -> Result<Bdd, Full> {
        let values: Vec<(BddVariable, bool)> = values.iter().map(|&(v, b)| (var(v), b)).collect();
        Ok(a.restrict(&values))
    }

    fn is_empty(&self, a: &Bdd) -> bool {
        a.is_false()
    }

    fn contains(&self, a: &Bdd, values: &[bool]) -> bool {
        a.eval_in(&BddValuation::new(values.to_vec()))
    }

    fn witness(&self, a: &Bdd) -> Option<Vec<bool>> {
        a.sat_witness().map(|v| v.into_vector())
    }

    fn size(&self, a: &Bdd) -> usize {
        a.size()
    }
}
