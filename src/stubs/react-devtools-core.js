// ink imports react-devtools-core only when DEV is set; the shipped bundle never connects to devtools.
export default { initialize() {}, connectToDevTools() {} }
