/** Finding the JSON node a field path names (`rules[2].action_parameters.id`), for checks that report by path. */
import { findNodeAtLocation, type Node, type Segment } from "jsonc-parser"

export const parsePath = (path: string): Array<Segment> => {
  const out: Array<Segment> = []
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!)
  return out
}

/** The node at a path, or the nearest ancestor that exists (a missing field is reported on its object). */
export const nodeAtPath = (root: Node, path: ReadonlyArray<Segment>): Node => {
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n) as Array<Segment>)
    if (node !== undefined) return node
  }
  return root
}

/** The property name node of a value node (to point at `"sensitivity"` rather than its value). */
export const nameNode = (value: Node): Node => (value.parent?.type === "property" ? value.parent.children![0]! : value)

export const rangeOf = (n: Node) => ({ start: n.offset, end: n.offset + n.length })
