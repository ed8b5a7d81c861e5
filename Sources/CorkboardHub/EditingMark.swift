import CorkboardModel
import Dispatch

/// A member's mark on the item whose label it is editing (docs/protocol.md#editing-marks):
/// presence only, never persisted or sequenced, and no lease: others may still move, edit or
/// delete the item. It only lets them see "Ada is editing" on it.
struct EditingMark {
    let item: ItemID
    /// Tells this mark from the member's next one, so the lapse timer of an ended mark does
    /// nothing.
    let generation: Int
    /// When the holder last sent `editing` for it: it lapses `dragTimeout` (30 s) later.
    var lastUpdate: DispatchTime
}
