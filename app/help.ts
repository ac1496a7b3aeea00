// The text of `yuj --help`, kept beside nothing else so README can quote it.

export const HELP = `yuj — a coding agent that works in your repository

Usage:
  yuj                          start yuj (the offline demo when no model is configured)
  yuj code "TASK"              run one task headless in the current directory
                               (aliases: yuj run "TASK", yuj -p "TASK", yuj "TASK")
  yuj tool NAME 'JSON-ARGS'    run one tool call through the dispatcher and print its result
                               (JSON-ARGS "-": read them from stdin)
  yuj setup --provider P --model M [--api-key-env VAR] [--base-url URL]
                               write the model settings to the user config
  yuj models                   list the configured provider's models
  yuj doctor                   check config, provider, git, ripgrep and bubblewrap
  yuj demo                     run the offline demo (scripted model, temporary copy of a demo repo)
  yuj approve [ID] [--always [--scope session|project]]
                               allow the call a paused session waits on (the newest one here, or ID)
  yuj reject [ID] [--message M]
                               refuse it; the message goes back to the model
  yuj resume [ID] ["MESSAGE"]  continue a session headless: paused, interrupted, or (with a new message) finished
  yuj rewind [ID] [--to N | --undo] [--yes] [--force]
                               list the messages a rewind returns to; --to N: the conversation back to before
                               message N and the files to their checkpoint (shows the patch, asks); --undo
  yuj answer [ID] "TEXT"       answer the question a session paused on, then continue it
  yuj sessions                 list the sessions, newest first (id, status, updated, cwd, task)
  yuj current                  print the id of the newest session in this directory
  yuj status [ID]              a session's status and the exact command that moves it on
  yuj show [ID]                that, plus its settings, todos, jobs and recent activity
  yuj replay ID [--allow-divergence]
                               run a recorded session again from its trace (recorded replies, a fresh copy
                               of its starting files) and report the first request that differs
  yuj trust [--show|--revoke]  trust this project's .yuj/config.toml as it is now, so its settings that
                               loosen the sandbox or approvals apply; --show: what they are and the state
  yuj measure RUN_DIR [--task PATH] [--prompt-text T | --prompt-file F] [--max-sessions N] [--dry-run]
              [--resume PATH --resume-message-file F]
                               measurement runs over RUN_DIR/repos/* (each with a prompt.txt): every ask denied,
                               metrics.json, savings.jsonl and checkpoint.json per task under RUN_DIR/results/
  yuj schema events|ops        print the JSON Schema of --output jsonl's events or --input jsonl's operations
  yuj --resume [ID]            open a stored session in the terminal UI and continue it
                               (ID: a session id or a unique prefix; without it, pick one from a list,
                               this directory's sessions first)

Options:
  --profile NAME               tool surface: _base (Yuj tools, default) or another folder under profiles/
  --config FILE                extra config layer (TOML); repeatable, later files win
  --provider P                 anthropic | openai | openai-chat | scripted
  --model M                    model id
  --base-url URL               API base URL (e.g. http://127.0.0.1:8080/v1 for a local server)
  --api-key-env VAR            read the API key from environment variable VAR
  --edit-format F              exact | apply_patch | udiff | whole
  --output text|jsonl          headless output: readable transcript (default) or one JSON event per line
  --output json                sessions, current, status, show: the report as JSON
  --input jsonl                code, resume, answer: read operations from stdin, one JSON object a line
                               (approve, reject, answer, cancel, more messages); an ask waits for its answer
                               there, and pauses as without it once stdin ends
  --max-turns N                stop after N model turns
  --plan-mode off|required     required: plan first ([loop].plan_mode); edits wait for an accepted plan
  --yolo                       skip ordinary approval asks (never for done, handoff, delegate, cancel)
  --loop                       yuj code: loop mode; continues until done (report confirmed as it comes) or [loop].max_iterations
  --measure                    measurement run: every ask is denied, no questions to the user
  --tool-desc minimal          code, measure: the set of tool descriptions the model is sent ([experiment].tool_desc)
  --allow-divergence           replay: go on past a differing request and list every one
  --keep-jobs                  headless: stay until background jobs finish (default: stop them when the run ends)
  -h, --help                   this help
  -V, --version                print the version

Exit status: 0 the model finished, 1 the run failed or hit a limit, 2 bad usage or config,
3 paused for an approval (yuj approve / reject, then yuj resume), 4 paused for an answer (yuj answer),
130 cancelled (Ctrl+C), 143 terminated (SIGTERM).
`;
