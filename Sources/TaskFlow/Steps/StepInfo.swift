/// Describes a step when it starts.
public struct StepInfo: Sendable, Hashable {
    /// Its identity within the flow.
    public let id: StepID
    /// The group, sequence or background step it runs inside, if any.
    public let parent: StepID?
    /// Its title.
    public let title: String
    /// Its kind.
    public let kind: StepKind

    /// Creates a step description.
    public init(id: StepID, parent: StepID?, title: String, kind: StepKind) {
        self.id = id
        self.parent = parent
        self.title = title
        self.kind = kind
    }
}
