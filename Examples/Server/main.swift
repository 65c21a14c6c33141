// server-example: TaskFlow in a server. The store's workers, a manager with flows arriving (some
// durable, now and then one too long for the shutdown's grace), the console `taskflow attach`
// watches, and Prometheus metrics on http://127.0.0.1:PORT/metrics, all in one ServiceGroup;
// logs on stderr through swift-log.
//
//     swift run server-example                         a fresh temporary folder, port 9464
//     swift run server-example --folder ~/x --port 0   your folder (its jobs.sqlite), any free port
//     swift run server-example --grace 3               flows get 3 s to finish at a shutdown
//
// SIGTERM (or ^C) drains: no new flows or jobs, live flows finish within the grace and the rest
// roll back, jobs in flight finish and commit. A second signal stops at once (rollbacks still run).
await ServerExample.launch()
