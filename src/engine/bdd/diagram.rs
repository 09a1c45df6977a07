//! The few operations the symbolic search asks of a decision-diagram library, as a
//! narrow trait, so the search reads the same whichever library holds the nodes.

/// A library of binary decision diagrams over the variables `0 … n−1`, ordered by
/// number (0 at the root). An operation may fail with [`Full`] where the library has
/// a fixed room for nodes.
pub trait Diagrams {
    /// One Boolean function of the variables (a set of valuations).
    type Set: Clone;

    /// The empty set.
    fn empty(&self) -> Self::Set;

    /// The set of every valuation.
    fn full(&self) -> Self::Set;

    /// The valuations in which `var` has `value`.
    fn literal(&self, var: usize, value: bool) -> Result<Self::Set, Full>;

    /// `a ∧ b`.
    fn and(&self, a: &Self::Set, b: &Self::Set) -> Result<Self::Set, Full>;

    /// `a ∨ b`.
    fn or(&self, a: &Self::Set, b: &Self::Set) -> Result<Self::Set, Full>;

    /// The conjunction of the literals `values` (the full set if there are none).
    fn cube(&self, values: &[(usize, bool)]) -> Result<Self::Set, Full> {
        // Deepest variable first: each conjunction then adds one node above the rest.
        let mut sorted = values.to_vec();
        sorted.sort_unstable_by_key(|&(var, _)| std::cmp::Reverse(var));
        let mut set = self.full();
        for (var, value) in sorted {
            set = self.and(&self.literal(var, value)?, &set)?;
        }
        Ok(set)
    }

    /// The disjunction of the literals `values` (the empty set if there are none).
    fn clause(&self, values: &[(usize, bool)]) -> Result<Self::Set, Full> {
        let mut set = self.empty();
        for &(var, value) in values {
            set = self.or(&self.literal(var, value)?, &set)?;
        }
        Ok(set)
    }

    /// `a ∧ ¬b`.
    fn and_not(&self, a: &Self::Set, b: &Self::Set) -> Result<Self::Set, Full>;

    /// The cofactor of `a` with the variables of `values` fixed (Shannon restriction):
    /// a function no longer depending on them.
    fn restrict(&self, a: &Self::Set, values: &[(usize, bool)]) -> Result<Self::Set, Full>;

    /// Whether `a` is the empty set.
    fn is_empty(&self, a: &Self::Set) -> bool;

    /// Whether the full valuation `values` (one entry per variable) is in `a`.
    fn contains(&self, a: &Self::Set, values: &[bool]) -> bool;

    /// One valuation in `a` (every variable given, those `a` does not depend on false),
    /// if `a` is not empty.
    fn witness(&self, a: &Self::Set) -> Option<Vec<bool>>;

    /// The nodes of `a`: what the search's memory budget counts.
    fn size(&self, a: &Self::Set) -> usize;
}

/// The node budget is spent: the library had no room for an operation's result, or
/// the sets a search holds passed its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Full;

