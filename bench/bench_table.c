/* bench_table.c: tagk-bench's subcommands, one row each (bench_commands.h);
 * the one file that knows them all, so that no subcommand's file and the
 * help code include each other. */
#include "bench_commands.h"
#include "bench_mass.h"
#include "bench_grasp.h"
#include "bench_shake.h"
#include "bench_coordinv.h"
#include "bench_sim.h"
#include "bench_excite.h"

const bench_command bench_subcommands[] = {
	{ "timing", "update times of every method over window sizes",
	  "[-m ROWS] [-n LIST] [--methods LIST] [--updates N] [--iters T] [--seed S]\n"
	  "                         [--noise SIGMA] [--paper] [--format text|md|csv] [-o FILE]",
	  "  -m, --rows ROWS        rows per window (default 30)\n"
	  "  -n, --sizes LIST       parameter counts (default 10,40,60,80,100,120)\n"
	  "      --methods LIST     methods, with :paper, :info, :joseph or :downdate to force a form\n"
	  "  -u, --updates N        timed updates per method and size (default 1000)\n"
	  "      --iters T          Kaczmarz iterations per update (default: one per row)\n"
	  "  -s, --seed S           seed of the run (default 1)\n"
	  "      --noise SIGMA      noise on b (default 0.01)\n"
	  "      --paper            the TAG-K paper's Table III shape and speedups\n"
	  "  -f, --format F         text (default), md or csv\n"
	  "  -o, --output FILE      write FILE instead of stdout\n", cmd_timing },
	{ "synth", "a synthetic log with known truth: prescribed motion, a payload on and off",
	  "[--duration S | --samples N] [--rate HZ] [--seed S] [--noise-acc X]\n"
	  "                        [--noise-gyro X] [--noise-force X] [--noise-torque X] [--no-payload]\n"
	  "                        [--no-alpha] [--stream S] [-o FILE]",
	  "      --duration S       seconds of log (default 20)\n"
	  "      --samples N        or this many samples\n"
	  "      --rate HZ          sample rate (default 100)\n"
	  "      --seed S           seed of the flight and the noise (default 1)\n"
	  "      --noise-acc X      noise on the specific force, m/s^2\n"
	  "      --noise-gyro X     noise on the gyro, rad/s\n"
	  "      --noise-force X    noise on the force, N\n"
	  "      --noise-torque X   noise on the torque, N m\n"
	  "      --no-payload       no payload event\n"
	  "      --no-alpha         leave out the angular acceleration columns\n"
	  "  -o, --output FILE      write FILE (HDF5 if .h5) instead of stdout\n"
	  "      --stream S         auto (default), csv or binary, as in tagk-regress(1)\n", cmd_synth },
	{ "pipeline", "throughput and memory of regress | estimate | report",
	  "[--samples LIST] [--formats csv,hdf5] [--streams csv,binary] [-a METHOD]\n"
	  "                        [--repeat N] [--dir DIR] [--keep]",
	  "      --samples LIST     log lengths in samples (default 100000,1000000)\n"
	  "      --formats LIST     the log's format: csv, hdf5 or both\n"
	  "      --streams LIST     the stream between the commands: csv, binary or both\n"
	  "  -a, --method M         a window or batch method (default tagk)\n"
	  "      --repeat N         runs of each command in the CPU table, the least counts (default 3);\n"
	  "                         rounds of the HDF5 paired table, their median counts (at least 5)\n"
	  "      --dir DIR          where the logs are written (default: a temporary directory)\n"
	  "      --keep             keep the logs\n", cmd_pipeline },
	{ "io-floor", "the least a reader of a log does: fast_float or libhdf5, then the stream's bytes",
	  "[--bytes N | --regress] FILE",
	  "      --bytes N          bytes written per row: its values, then zeros (default 8 a value)\n"
	  "      --regress          a CSV or HDF5 log's rigid-body rows instead: tagk-regress's binary\n"
	  "                         stream, byte for byte (the yardstick of issue 57); HDF5 by\n"
	  "                         H5Dread_chunk, unfiltered or deflated chunks\n",
	  cmd_iofloor },
	{ "memory", "peak memory of the commands that read a whole stream, as it grows",
	  "[--rows LIST]",
	  "      --rows LIST        stream lengths (default 100000,1000000,10000000)\n", cmd_memory },
	{ "device", "the update times of the Cortex-M7 benchmark, on this host",
	  "[--sizes LIST] [--updates N]",
	  "  -n, --sizes LIST       parameter counts (default 40,60,80,100,120)\n"
	  "  -u, --updates N        timed updates per size (default 20)\n", cmd_device },
	{ "simulate", "one closed-loop flight of the TAG-K paper's experiment as a log",
	  "[--seed S] [--traj NAME] [--noise LEVEL] [--method M]\n"
	  "                           [--duration S] [--no-gate] [--protocol tagk|authors] [--ground S] [-o FILE]",
	  "  -s, --seed S           seed of the trial (default 1)\n"
	  "      --traj NAME        figure-8 (default) or another trajectory\n"
	  "      --noise LEVEL      none, low, medium or high\n"
	  "  -a, --method M         the estimator in the loop (default tagk)\n"
	  "      --duration S       seconds of flight (default 20)\n"
	  "      --no-gate          no gate in the loop\n"
	  "      --protocol P       tagk (default: the paper's text) or authors (their code)\n"
	  "      --ground S         a ULog: S seconds (at most 4.9) on the ground, motors idling, before the flight\n"
	  "  -o, --output FILE      write FILE instead of stdout (a PX4-like ULog if FILE ends in .ulg)\n",
	  bench_simulate },
	{ "table2", "the TAG-K paper's Table II, closed-loop trials",
	  "[--trials N] [--noise LEVELS] [--methods LIST] [--seed S]\n"
	  "                         [--shard I/N] [--format text|md|csv|trials] [-j JOBS]\n"
	  "                         [--protocol tagk|authors|both] [SETTING...] [--progress] [-q]",
	  "      --trials N         trials per noise level and method (default 500)\n"
	  "      --noise LEVELS     noise levels (default none,low,medium,high)\n"
	  "      --methods LIST     methods (default rls-low,rls-high,kf-low,kf-high,tagk)\n"
	  "      --seed S           seed of the run (default 1)\n"
	  "      --shard I/N        run trials I, I+N, ... and write trial lines for merge\n"
	  "  -f, --format F         text (default), md, csv, or trials (one line per trial)\n"
	  "      --protocol P       tagk (default: the paper's text), authors (their code) or both\n"
	  "      --iters N          Kaczmarz methods: iterations per update (default 0: one per row)\n"
	  "      --b B              right-hand side: wrench (the rotors') or oracle (Y theta_true)\n"
	  "      --noise-model M    tagk (velocity, specific force) or authors (position, velocity)\n"
	  "      --gate G           none, baselines (eq. 15 but not on tagk), eq15 (or all), authors\n"
	  "      --success S        paper (5 cm after both events) or authors (before the drop)\n"
	  "      --payload P        paper (30-50 %, 20-30 % of the arm) or authors (m/3-m/2, 1 mm)\n"
	  "      --reference R      paper (0.5 m/s) or authors (their generators, 15-20 s periods)\n"
	  "      --rotors R         paper (0.25 N each, tagk's LQR) or authors (0.147 N, their LQR)\n"
	  "      --dynamics D       tagk (exact) or authors (their equations of motion)\n"
	  "      --window N         control steps per update, 1 to 5 (default 5; authors: 1)\n"
	  "      --kf-form F        KF methods: auto, joseph, info, downdate or explicit (the\n"
	  "                         authors' C++)\n"
	  "      --regressor R      tagk (exact) or authors (their sign slips and oracle b)\n"
	  "      --refs R           paper (the five references at random; both protocols) or authors\n"
	  "                         (the figure-8 alone, their script's default)\n"
	  "  -j, --jobs N           processes (default 1; timings then share the cores)\n"
	  "      --progress         progress lines, even on a terminal: one at once, then every 2 s\n"
	  "  -q, --quiet            no progress\n", bench_table2 },
	{ "merge", "Table II from shard files",
	  "[--format text|md|csv] FILE...",
	  "      --format F         text (default), md or csv\n", bench_merge },
	{ "ablation", "the TAG-K paper's Fig. 3b: rk, tark, grk, tagk around payload events",
	  "[--trials N] [--noise LEVEL] [--seed S] [--protocol tagk|authors] [-j JOBS]\n"
	  "                         [--progress] [-q]",
	  "      --trials N         trials (default 100)\n"
	  "      --noise LEVEL      one noise level (default none)\n"
	  "      --seed S           seed of the run (default 1)\n"
	  "      --protocol P       tagk (default; ungated) or authors (their code, gated)\n"
	  "  -j, --jobs N           processes (default 1)\n"
	  "      --progress         progress lines, even on a terminal: one at once, then every 2 s\n"
	  "  -q, --quiet            no progress\n", bench_ablation },
	{ "massflight", "one UAV flight of the time-varying-mass paper as a log",
	  "[--traj NAME] [--mass NAME] [--seed S] [--duration S]\n"
	  "                             [--rate HZ] [--m-nom KG] [--noise X] [--thrust-sd X]\n"
	  "                             [--thrust-lag S] [--thrust-max X] [--speed X] [--mass-scale X]\n"
	  "                             [--noise-ar1 PHI] [--state-noise-ar1 PHI] [--thrust-map-sd X]\n"
	  "                             [--pwm VEHICLE [--vbat V0[,V1]]] [--ground S] [-o FILE]",
	  "      --traj NAME        random, loop (default), lemniscate, zigzag or square\n"
	  "      --mass NAME        constant, drain (default), swaps, drop or load\n"
	  "      --seed S           seed of the flight (default 1)\n"
	  "      --duration S       seconds of flight (default 20)\n"
	  "      --rate HZ          sample rate (default 100)\n"
	  "      --m-nom KG         nominal mass (default 1; with --pwm the vehicle's mass)\n"
	  "      --noise X          scale of every measurement noise (default 1)\n"
	  "      --thrust-sd X      relative noise of the thrust (default 0)\n"
	  "      --thrust-lag S     the thrust produced lags the command by S seconds (default 0)\n"
	  "      --thrust-max X     the thrust produced saturates at X weights (default 0: none)\n"
	  "      --speed X          fly the reference X times as fast (default 1)\n"
	  "      --mass-scale X     the mass changes' amplitudes times X (default 1)\n"
	  "      --noise-ar1 PHI    the accelerometer's and gyro's noise an AR(1) process of coefficient\n"
	  "                         PHI per sample, its sd kept (default 0: white)\n"
	  "      --state-noise-ar1 PHI  the logged attitude's, position's and velocity's noise the same\n"
	  "                         (an onboard estimator's output); the controller flies on white noise\n"
	  "      --thrust-map-sd X  the logged thrust is the thrust times 1 + d, d drawn once per flight\n"
	  "                         from a normal of sd X (a thrust map's error; default 0)\n"
	  "      --pwm VEHICLE      instead of the thrust, each motor's command (a quarter of the thrust\n"
	  "                         through the inverse of VEHICLE's thrust map) and the battery voltage,\n"
	  "                         as a Crazyflie logs them (motor.m1 .. motor.m4, pm.vbat)\n"
	  "      --vbat V0[,V1]     --pwm: the battery's voltage, sagging from V0 to V1 (default 4)\n"
	  "      --ground S         S seconds resting on the ground, motors off, before and after\n"
	  "  -o, --output FILE      write FILE (HDF5 if .h5) instead of stdout\n", bench_massflight },
	{ "rmspe", "the time-varying-mass paper's RMSPE tables",
	  "[--trials N] [--traj LIST] [--mass LIST] [--methods LIST]\n"
	  "                        [--duration S] [--seed S] [--m0-error X] [--acc imu|velocity]\n"
	  "                        [--thrust-lag S] [--thrust-max X] [--speed X] [--noise X]\n"
	  "                        [--mass-scale X] [-j JOBS] [--format text|md|csv] [--progress] [-q]",
	  "      --trials N         flights per cell (default 10)\n"
	  "      --traj LIST        trajectories (default all five)\n"
	  "      --mass LIST        mass behaviours (default all five)\n"
	  "      --methods LIST     methods (default ekf,msckf,ukf,swls,tagk,rls-low,kf-low); a regressor\n"
	  "                         method with /z (tagk/z) on the body-z rows alone\n"
	  "      --duration S       seconds per flight (default 20)\n"
	  "      --seed S           seed of the run (default 1)\n"
	  "      --m0-error X       relative error of the initial mass (default 0.2)\n"
	  "      --acc SRC          mass rows from the imu (default) or the velocity\n"
	  "      --thrust-lag S     the thrust produced lags the command by S seconds (default 0)\n"
	  "      --thrust-max X     the thrust produced saturates at X weights (default 0: none)\n"
	  "      --speed X          fly the references X times as fast (default 1)\n"
	  "      --noise X          every sensor's noise times X (default 1)\n"
	  "      --mass-scale X     the mass changes' amplitudes times X (default 1)\n"
	  "  -j, --jobs N           processes (default: the processors, at most 8)\n"
	  "  -f, --format F         text (default), md or csv\n"
	  "      --progress         progress lines, even on a terminal: one at once, then every 2 s\n"
	  "  -q, --quiet            no progress\n", bench_rmspe },
	{ "coverage", "the calibration of tagk-estimate's 95 % intervals over simulated flights",
	  "[--seeds N] [--methods LIST] [--duration S] [--noise X]\n"
	  "                           [--thrust-sd X] [--noise-ar1 PHI] [--thrust-map-sd X] [-j JOBS]",
	  "      --seeds N          flights, seeds 1 to N (default 200)\n"
	  "      --methods LIST     kf-low, kf, kf-high, rls-low, rls, rls-high, ols, wls (default kf-low,rls-low,ols,wls);\n"
	  "                         ekf, msckf, msckf-stack, ukf, swls read the flight's state (tagk-regress -m state)\n"
	  "      --duration S       seconds per flight (default 20)\n"
	  "      --noise X          scale of every measurement noise (default 1)\n"
	  "      --thrust-sd X      relative noise of the thrust (default 0)\n"
	  "      --noise-ar1 PHI    coloured sensor and logged-state noise: AR(1) of coefficient PHI (default\n"
	  "                         0: white)\n"
	  "      --thrust-map-sd X  each flight's logged thrust off by a factor 1 + d, d ~ N(0, X), and\n"
	  "                         tagk-regress told --scale-sd X (default 0)\n"
	  "  -j, --jobs N           processes (default 2)\n", cmd_coverage },
	{ "changes", "change detection over simulated flights and grasps: F1, timing, false alarms, coverage",
	  "[--runs N | --quick] [--seed S] [--duration S] [--tolerance S] [--naive X]\n"
	  "                        [--min-shift C] [-j JOBS]",
	  "      --runs N           simulated runs, half quadrotor, half arm (default 240)\n"
	  "      --quick            24 runs (make check's)\n"
	  "  -s, --seed S           seed of the runs (default 1)\n"
	  "      --duration S       seconds per run (default 20)\n"
	  "      --tolerance S      a detection within S s of a true change is a hit (default 1; a causal\n"
	  "                         detector's may come S + 1 s late)\n"
	  "      --naive X          the naive detector's threshold: kf-low's smoothed m moving by X of\n"
	  "                         itself within 1 s (default 0.1)\n"
	  "      --min-shift C      the offline segmentation with tagk-estimate --min-shift C (m)\n"
	  "  -j, --jobs N           processes (default 2)\n", cmd_changes },
	{ "grasp", "one run of paper 003's experiment as a joint log: an arm moving a held cube",
	  "[--base fixed|floating] [--target KG] [--robot-error RHO] [--seed S]\n"
	  "                       [--duration S] [--dt S] [--motion task|joint] [--model FILE]\n"
	  "                       [--model-out FILE] [-o FILE]",
	  "      --base B           fixed (ground, gravity; default) or floating (orbit, no gravity)\n"
	  "      --target KG        the cube's mass (default 5)\n"
	  "      --robot-error RHO  the robot model the estimator knows is perturbed by RHO (default 0)\n"
	  "      --seed S           seed of the run (default 1)\n"
	  "      --duration S       seconds (default 20)\n"
	  "      --dt S             the step, one sample each (default 0.001)\n"
	  "      --motion M         task: the cube's velocities sinusoids in the base frame (eq. 28;\n"
	  "                         default); joint: each joint a sinusoid\n"
	  "      --model FILE       the arm (default panda: datasets/panda.model)\n"
	  "      --model-out FILE   write the robot the estimator knows, a model file\n"
	  "  -o, --output FILE      write FILE (HDF5 if .h5) instead of stdout\n", bench_grasp },
	{ "grasp-table", "paper 003's Tables II and III: a grasped cube's inertia by rls-ld, with the paper's claims",
	  "[--model FILE] [--seed S] [--duration S] [--dt S] [--est-dt S]\n"
	  "                       [--weight W|reference] [--signals measured|exact] [--qd-noise X]\n"
	  "                       [--base-noise X] [--motion task|joint] [--sweep]",
	  "      --model FILE       the arm (default panda: datasets/panda.model)\n"
	  "      --seed S           seed of the runs (default 1)\n"
	  "      --duration S       seconds per run (default 20)\n"
	  "      --dt S             simulation and control step (default 0.001, the Panda's 1 kHz)\n"
	  "      --est-dt S         estimation step, a multiple of --dt (default 0.01)\n"
	  "      --weight W         each row's weight (default 1); reference: 1 / (N rows per sample)\n"
	  "      --signals S        measured: noisy velocities, differentiated accelerations (default);\n"
	  "                         exact: the simulator's\n"
	  "      --qd-noise X       the measured joint velocities' noise, rad/s (default 0.005)\n"
	  "      --base-noise X     the measured base twist's noise in orbit, rad/s and m/s (default 0.001)\n"
	  "      --motion M         task (eq. 28, default) or joint, as grasp's\n"
	  "      --sweep            every cell's ratio to the paper and the claims, for steps of\n"
	  "                         10/10, 1/10 and 1/1 ms and weights 1, 10, 1000 and reference\n",
	  bench_grasp_table },
	{ "shake", "paper 004's experiment: simulated objects held and shaken by a 4-DoF arm, as joint logs",
	  "[--objects N] [--first K] [--seed S] [--long S] [--q-noise R] [--qd-noise R]\n"
	  "                       [--tau-noise T] [--damping D] [--model-out FILE] [-o FILE]",
	  "      --objects N        objects to simulate (default 1), one after another in one table\n"
	  "      --first K          the first object's index (default 0; the test split is 4500 .. 4999)\n"
	  "      --seed S           seed of the object distribution and the noise (default 1)\n"
	  "      --long S           S seconds of joint sinusoids (the paper's L: 10) instead of the 0.5 s shake\n"
	  "      --q-noise R        encoder noise on q, rad (default 5e-4)\n"
	  "      --qd-noise R       noise on qd, rad/s (default 5e-3)\n"
	  "      --tau-noise T      torque noise the log does not see, N m (default 0.02)\n"
	  "      --damping D        joint damping the model lacks, N m s/rad (default 0)\n"
	  "      --model-out FILE   write the arm (without the object) as a model file\n"
	  "  -o, --output FILE      write FILE (HDF5 if .h5) instead of stdout\n", bench_shake },
	{ "shake-table", "paper 004's Tables II and III on simulated objects: errors, infeasible, time",
	  "[--objects N] [--first K] [--seed S] [--long S] [--q-noise R] [--qd-noise R]\n"
	  "                       [--tau-noise T] [--damping D] [--force-noise N] [--moment-noise M]\n"
	  "                       [-j N] [--progress] [-q]",
	  "      --objects N        test objects (default 500)\n"
	  "      --first K          the first one (default 4500: the test split of 5000)\n"
	  "      --seed S           seed (default 1)\n"
	  "      --long S           seconds of the long excitation (default 10)\n"
	  "      --q-noise R, --qd-noise R, --tau-noise T, --damping D   as tagk-bench shake\n"
	  "      --force-noise N    noise on the paper's object-level force rows, N (default 0: none stated)\n"
	  "      --moment-noise M   noise on its torque rows, N m (default 0)\n"
	  "  -j, --jobs N           processes (default: the processors, at most 8)\n"
	  "      --progress         progress lines, even on a terminal: one at once, then every 2 s\n"
	  "  -q, --quiet            no progress\n", bench_shake_table },
	{ "coordinv", "paper 002's Figs. 4 and 6: coordinate-independent identification, two robots",
	  "[--system swimmer|crazyflie|both] [--seeds N] [--low N] [--lambda L]\n"
	  "                       [--prior-error X[,X...]] [--pos-noise R] [--exact-velocity] [--friction F]\n"
	  "                       [--force-noise U] [--rotor-drag K] [--thrust-error E] [--joint-friction C]\n"
	  "                       [--physical]",
	  "      --system S         swimmer (Fig. 6), crazyflie (Fig. 4) or both (default)\n"
	  "      --seeds N          training and test runs per table cell (default 10)\n"
	  "      --low N            samples of the low-data regime (default 40 swimmer, 20 crazyflie)\n"
	  "      --lambda L         the regularised methods' weight (default 10)\n"
	  "      --prior-error X,.. their prior is the truth off by up to X, relative: the tables under the\n"
	  "                         first, the claims under each (default 0.3,0.9: a CAD model's, a poor one)\n"
	  "      --pos-noise R      noise on the measured positions, m and rad (default 1e-3 swimmer,\n"
	  "                         1e-4 crazyflie)\n"
	  "      --exact-velocity   velocities (and accelerations) exact, not by central differences\n"
	  "      --friction F       swimmer: joint Coulomb friction the model lacks, N m (default 0.005)\n"
	  "      --force-noise U    swimmer: wheel-force noise the log does not see, N (default 0.02)\n"
	  "      --rotor-drag K     crazyflie: rotor drag the model lacks, N s/m (default 0.01)\n"
	  "      --thrust-error E   crazyflie: relative error of the thrust map (default 0.03)\n"
	  "      --joint-friction C crazyflie: viscous joint friction, N m s/rad (default 2e-5)\n"
	  "      --physical         every method keeps the parameters physical: D >= 0 (swimmer),\n"
	  "                         pseudo-inertias (crazyflie); names get -pc\n", bench_coordinv },
	{ "excite", "an exciting trajectory for identifying a robot's base parameters, as a joint log",
	  "--robot FILE [--harmonics K] [--period S] [--periods N] [--rate HZ] [--iters N]\n"
	  "                       [--seed S] [--q-min L] [--q-max L] [--qd-max L] [--qdd-max L] [-o FILE]",
	  "      --robot FILE       the robot: a model file, URDF or MJCF (fixed base)\n"
	  "      --harmonics K      Fourier harmonics per joint (default 5)\n"
	  "      --period S         the base period, s (default 10)\n"
	  "      --periods N        periods written (default 1)\n"
	  "      --rate HZ          samples per second written (default 1000)\n"
	  "      --iters N          search steps (default 1000; 0: the random start)\n"
	  "      --seed S           seed of the start and the search (default 1)\n"
	  "      --q-min L, --q-max L  joint positions' range, one value or one per joint\n"
	  "                         (default -1 1 rad, -0.1 0.1 m; tagk's models carry no limits)\n"
	  "      --qd-max L         joint speed limit (default 1 rad/s, 0.1 m/s)\n"
	  "      --qdd-max L        joint acceleration limit (default 5 rad/s^2, 0.5 m/s^2)\n"
	  "  -o, --output FILE      write FILE instead of stdout\n", bench_excite },
};
const size_t bench_nsubcommands = sizeof(bench_subcommands) / sizeof(bench_subcommands[0]);
