; Inno Setup script for soccerdesk. scripts/build-installer passes the defines:
;   iscc /DAppVersion=0.1.0 /DSourceDir=dist\soccerdesk /DOutputDir=dist /DIconFile=build\icons\soccerdesk.ico soccerdesk.iss

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif

[Setup]
AppId={{6B1C3E52-8F0B-4C11-9C59-5F0C1D2E7A41}
AppName=soccerdesk
AppVersion={#AppVersion}
AppPublisher=soccerdesk developers
DefaultDirName={autopf}\soccerdesk
DefaultGroupName=soccerdesk
UninstallDisplayIcon={app}\soccerdesk.exe
SetupIconFile={#IconFile}
OutputDir={#OutputDir}
OutputBaseFilename=soccerdesk-{#AppVersion}-windows-setup
Compression=lzma2
SolidCompression=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
PrivilegesRequiredOverridesAllowed=dialog
WizardStyle=modern

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\soccerdesk"; Filename: "{app}\soccerdesk.exe"
Name: "{group}\Uninstall soccerdesk"; Filename: "{uninstallexe}"
Name: "{autodesktop}\soccerdesk"; Filename: "{app}\soccerdesk.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\soccerdesk.exe"; Description: "{cm:LaunchProgram,soccerdesk}"; Flags: nowait postinstall skipifsilent
