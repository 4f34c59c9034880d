// The rulelang extension: colouring comes from syntaxes/; this file starts the language
// server (`rulelang lsp`, from `pip install "rulelang[lsp]"`) for .rules files.
"use strict";

const vscode = require("vscode");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("rulelang").get("server.command", ["rulelang", "lsp"]);
  if (!Array.isArray(command) || command.length === 0) {
    return;
  }
  let languageclient;
  try {
    languageclient = require("vscode-languageclient/node");
  } catch (err) {
    vscode.window.showWarningMessage(
      "rulelang: colouring only (run 'npm install' in the extension folder for the language server).",
    );
    return;
  }
  const server = { command: command[0], args: command.slice(1) };
  client = new languageclient.LanguageClient(
    "rulelang",
    "rulelang",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "rulelang" }, { scheme: "untitled", language: "rulelang" }] },
  );
  client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `rulelang: cannot start '${command.join(" ")}' (${err.message}); pip install "rulelang[lsp]"`,
    );
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
