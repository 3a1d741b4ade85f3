/**
 * The protocol's lifecycle rules for requests, enforced where messages arrive (before any handler
 * runs): a request before `initialize` is answered with ServerNotInitialized (-32002) and a
 * notification then is dropped (but `exit`); a request after `shutdown` is answered with
 * InvalidRequest (-32600). The handlers would otherwise answer `null`, which a client takes for
 * "nothing here" rather than "not now".
 */
import {
  ErrorCodes,
  Message,
  StreamMessageReader,
  StreamMessageWriter,
  type DataCallback,
  type MessageReader,
  type MessageWriter,
  type RequestMessage
} from "vscode-languageserver/node.js"

export const gatedStreams = (
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream
): { readonly reader: MessageReader; readonly writer: MessageWriter } => {
  const inner = new StreamMessageReader(input)
  const writer = new StreamMessageWriter(output)
  let state: "new" | "running" | "shut" = "new"
  const refuse = (m: RequestMessage, code: number, message: string) =>
    void writer.write({ jsonrpc: "2.0", id: m.id, error: { code, message } } as Message)
  const reader: MessageReader = {
    onError: inner.onError,
    onClose: inner.onClose,
    onPartialMessage: inner.onPartialMessage,
    dispose: () => inner.dispose(),
    listen: (callback: DataCallback) =>
      inner.listen((m) => {
        if (Message.isRequest(m)) {
          if (state === "new" && m.method !== "initialize")
            return refuse(m, ErrorCodes.ServerNotInitialized, `${m.method}: the server is not initialized yet`)
          if (state === "shut")
            return refuse(m, ErrorCodes.InvalidRequest, `${m.method}: the server has been shut down`)
          if (m.method === "initialize") state = "running"
          else if (m.method === "shutdown") state = "shut"
        } else if (Message.isNotification(m) && state === "new" && m.method !== "exit") return
        callback(m)
      })
  }
  return { reader, writer }
}
