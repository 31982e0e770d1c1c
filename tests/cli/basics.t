$ collcalc --version
collcalc 0.1.0
