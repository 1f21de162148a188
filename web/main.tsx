/** The web app's entry: its stylesheet (bundled beside it by bin/build.js) and the app, mounted on the page's #app. */
import "./styles/base.css";
import { render } from "preact";
import { App } from "./app.tsx";

const root = document.getElementById("app");
if (root) render(<App />, root);
