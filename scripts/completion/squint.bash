# squint.bash -- bash completion for squint (installed by `make install`
# as share/bash-completion/completions/squint).  The commands come from
# 'squint help' and each command's options from 'squint CMD --help', asked
# of the squint being completed, so that completion knows what it knows.
# Anything else completes as a file name.  zsh can use it too:
#   autoload -U bashcompinit && bashcompinit && source squint.bash

_squint() {
    local cur=${COMP_WORDS[COMP_CWORD]} squint=${COMP_WORDS[0]} cmd words
    if [ "$COMP_CWORD" -eq 1 ]; then
        words=$("$squint" help 2>/dev/null | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
        return
    fi
    cmd=(${COMP_WORDS[1]})
    case ${COMP_WORDS[1]} in
    llm)
        if [ "$COMP_CWORD" -eq 2 ]; then
            COMPREPLY=($(compgen -W "run import --help --version" -- "$cur"))
            return
        fi
        cmd+=(${COMP_WORDS[2]})
        ;;
    esac
    if [[ $cur == -* ]]; then
        words=$("$squint" "${cmd[@]}" --help 2>/dev/null |
            sed -n 's/^ \{2,6\}\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p')
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    fi
}
complete -o bashdefault -o default -F _squint squint
