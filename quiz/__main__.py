from quiz.cli import main

raise SystemExit(main())
