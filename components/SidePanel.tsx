// The information column beside the transcript: model, context use, token
// totals, the language and MCP servers, the skills (green once loaded), the todo list, running jobs and the
// working tree's changes.
// Every row is one line cut to the width, so the panel never outgrows its
// height: sections at the bottom are what gets cut.

import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { SessionView } from "../core/reducer.js";
import { truncate } from "../core/text/width.js";
import { agentRows, jobRows, sidePanelRows, todoRows, todosHeading, type Row, type SidePanelProps } from "./side-panel-rows.js";
import { theme } from "./theme.js";

/** The todos and running jobs over the transcript (`s` or /todos when the terminal is too narrow for the side panel). */
export function TodosOverlay(props: { view: SessionView; width: number; height: number; now?: number; shownAgent?: string }): ReactNode {
  const { view, width, height } = props;
  const now = props.now ?? Date.now();
  const jobs = jobRows(view, now);
  const agents = agentRows(view, now, props.shownAgent);
  const rows: Row[] = [
    { text: "TODOS, JOBS AND AGENTS · Esc close", bold: true, color: theme.accent },
    { text: "" },
    { text: view.todos.length ? todosHeading(view) : "TODOS", bold: true, color: theme.muted },
    ...(view.todos.length ? todoRows(view) : [{ text: "no todos yet", dim: true }]),
    { text: "" },
    { text: `JOBS ${jobs.length}`, bold: true, color: theme.muted },
    ...(jobs.length ? jobs : [{ text: "no background jobs running", dim: true }]),
    { text: "" },
    { text: `AGENTS ${agents.length / 2} · Shift+Tab shows each`, bold: true, color: theme.muted },
    ...(agents.length ? agents : [{ text: "no workers or task children yet", dim: true }]),
  ];
  return <PanelRows rows={rows} width={width} height={height} />;
}

export function SidePanel(props: SidePanelProps): ReactNode {
  return <PanelRows rows={sidePanelRows(props)} width={props.width} height={props.height} />;
}

function PanelRows(props: { rows: Row[]; width: number; height: number }): ReactNode {
  const { width, height } = props;
  const rows = props.rows.slice(0, Math.max(0, height));
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {rows.map((r, i) => (
        <Text key={i} wrap="truncate" {...(r.color ? { color: r.color } : {})} bold={r.bold} dimColor={r.dim}>
          {truncate(r.text, width) || " "}
          {r.tail?.map((p, j) => (
            <Text key={j} color={p.color}>
              {p.text}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}
