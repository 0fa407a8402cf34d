"""Run a command at a pseudo-terminal, answering its prompts: the application's approval asked at a terminal.

    python terminal.py OUTPUT [--answer PROMPT=TEXT ...] -- COMMAND ...

Each time the output shows PROMPT (a regular expression), TEXT and Enter are typed, once each, in the order given.
Without an answer, nothing is typed. The command's output goes to OUTPUT; the exit status is the command's.
"""

import os
import pty
import re
import sys
import time


def main(arguments):
    split = arguments.index("--")
    output, options, command = arguments[0], arguments[1:split], arguments[split + 1:]
    answers = [answer for pair in zip(options[::2], options[1::2]) if pair[0] == "--answer" for answer in [pair[1].split("=", 1)]]
    pid, terminal = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    seen, start = b"", time.time()
    with open(output, "wb") as written:
        while True:
            try:
                chunk = os.read(terminal, 4096)
            except OSError:  # the command ended: the terminal is closed
                break
            if not chunk:
                break
            written.write(chunk)
            seen += chunk
            if answers and re.search(answers[0][0].encode(), seen):
                time.sleep(0.5)  # the prompt reads only what is typed after it is shown
                os.write(terminal, answers[0][1].encode() + b"\r")
                answers.pop(0)
                seen = b""
            if time.time() - start > 1800:
                os.kill(pid, 9)
    unused, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
