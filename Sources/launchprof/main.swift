import LaunchFrontend

LaunchProf.main()
