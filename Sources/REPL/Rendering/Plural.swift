/// A count with its noun in the right number: `1 item`, `2 items`, `0 items`.
func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
